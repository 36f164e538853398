// A database or Temporal that is down is answered 503 with a sentence a creator understands (issue 31), from the
// real errors Prisma and the Temporal client raise when nothing listens at their address.
import net from "node:net";
import { Connection } from "@temporalio/client";
import { afterAll, describe, expect, it } from "vitest";
import { DATABASE_DOWN_MESSAGE, TEMPORAL_DOWN_MESSAGE, answerBusy, isDatabaseDownError, isTemporalDownError } from "~/server/busy.server";
import { createPrismaClient, prisma } from "~/server/db.server";

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((r) => server.close(r));
  return port;
}

async function thrownBy(work: () => Promise<unknown>): Promise<unknown> {
  try {
    await work();
  } catch (e) {
    return e;
  }
  throw new Error("expected a failure");
}

const down = createPrismaClient(`postgresql://postgres:postgres@127.0.0.1:${await closedPort()}/reelsmith`, { size: 2, waitMs: 2000 });
afterAll(async () => {
  await down.$disconnect().catch(() => {});
  await prisma.$disconnect();
});

describe("a part that is down", () => {
  it("the database: a route answers 503, Retry-After, and says the work is safe and the page retries", async () => {
    const error = await thrownBy(() => down.user.count());
    expect(isDatabaseDownError(error)).toBe(true);
    expect(isTemporalDownError(error)).toBe(false);
    const answer = (await thrownBy(() => answerBusy(() => down.user.count())())) as Response;
    expect(answer.status).toBe(503);
    expect(answer.headers.get("Retry-After")).toBe("5");
    expect(await answer.json()).toEqual({ message: DATABASE_DOWN_MESSAGE, unavailable: "database" });
  });

  it("Temporal: the same, with its own sentence", async () => {
    const error = await thrownBy(() => Connection.connect({ address: "127.0.0.1:1", connectTimeout: "1s" }));
    expect(isTemporalDownError(error)).toBe(true);
    expect(isDatabaseDownError(error)).toBe(false);

    const answer = (await thrownBy(() => answerBusy(() => Connection.connect({ address: "127.0.0.1:1", connectTimeout: "1s" }))())) as Response;
    expect(answer.status).toBe(503);
    expect(await answer.json()).toEqual({ message: TEMPORAL_DOWN_MESSAGE, unavailable: "temporal" });
  });

  it("a working database's own errors stay errors (not 'down')", async () => {
    const error = await thrownBy(() => prisma.$queryRawUnsafe("SELECT * FROM no_such_table"));
    expect(isDatabaseDownError(error)).toBe(false);
    expect(isTemporalDownError(error)).toBe(false);
  });
});
