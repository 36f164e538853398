// An exhausted database pool is answered "busy" (503, Retry-After, a sentence) instead of a 500 (issue 36,
// decision 130): the real errors node-postgres and Prisma raise when no connection comes in time are recognised,
// and a route wrapped the way server.ts wraps every loader and action turns them into that answer.
import { afterAll, describe, expect, it } from "vitest";
import { BUSY_MESSAGE, answerBusy, withBusyAnswers } from "~/server/host/busy.server";
import { createPrismaClient, isDatabaseBusyError } from "~/core/db.server";
import type { ServerBuild } from "@remix-run/node";

// one connection, and 2 s to wait for it (opening a connection on a loaded machine can itself take most of a second)
const tiny = createPrismaClient(process.env.DATABASE_URL!, { size: 1, waitMs: 2000 });

afterAll(() => tiny.$disconnect());

/** Holds the pool's only connection for `ms` inside a transaction; resolves once it is held. */
async function holdTheConnection(ms: number): Promise<{ released: Promise<unknown> }> {
  await tiny.user.count(); // the connection is open before the test starts counting time
  let held!: () => void;
  const holding = new Promise<void>((r) => (held = r));
  const released = tiny.$transaction(
    async (tx) => {
      held();
      await tx.$executeRaw`SELECT pg_sleep(${ms / 1000})`;
    },
    { timeout: ms + 5000 },
  );
  await holding;
  return { released };
}

async function thrownBy(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (e) {
    return e;
  }
  throw new Error("expected a failure");
}

describe("a database pool with no connection to give", () => {
  it("recognises the query's pool timeout and the transaction's start timeout as busy, not a query's own error", async () => {
    const { released } = await holdTheConnection(4000);
    const queryError = await thrownBy(tiny.user.count());
    const txError = await thrownBy(tiny.$transaction(async (tx) => tx.user.count(), { maxWait: 200 }));
    await released;
    expect(isDatabaseBusyError(queryError)).toBe(true);
    expect(isDatabaseBusyError(txError)).toBe(true);
    // with the connection free again, a wrong query is its own error, not "busy"
    const ownError = await thrownBy(tiny.$queryRawUnsafe("SELECT * FROM no_such_table"));
    expect(isDatabaseBusyError(ownError)).toBe(false);
  });

  it("answers a route's request 503 with Retry-After and the sentence, and leaves other errors alone", async () => {
    const loader = answerBusy(async () => Response.json({ users: await tiny.user.count() }));
    const { released } = await holdTheConnection(3000);
    const answer = (await thrownBy(loader())) as Response;
    await released;
    expect(answer).toBeInstanceOf(Response);
    expect(answer.status).toBe(503);
    expect(answer.headers.get("Retry-After")).toBe("5");
    expect(await answer.json()).toEqual({ message: BUSY_MESSAGE, busy: true });

    const failing = answerBusy(async () => {
      throw new Error("boom");
    });
    await expect(failing()).rejects.toThrow("boom");
    // and once the connection is free the same route answers normally
    expect(await ((await loader()) as Response).json()).toEqual({ users: expect.any(Number) });
  });

  it("wraps every loader and action of a server build, once per build", async () => {
    const busy = async () => {
      throw Object.assign(new Error("timeout exceeded when trying to connect"), {});
    };
    const build = { routes: { a: { id: "a", module: { loader: busy, action: busy, default: () => null } } } } as unknown as ServerBuild;
    const wrapped = withBusyAnswers(build);
    expect(withBusyAnswers(build)).toBe(wrapped);
    const route = wrapped.routes.a!.module as unknown as { loader: () => Promise<unknown>; action: () => Promise<unknown> };
    expect(((await thrownBy(route.loader())) as Response).status).toBe(503);
    expect(((await thrownBy(route.action())) as Response).status).toBe(503);
  });
});
