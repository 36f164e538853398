// A database or Temporal that is down is answered 503 with a sentence a creator understands (issue 31), from the
// real errors Prisma and the Temporal client raise when nothing listens at their address; and a database that is
// there but hung (decision 193), through a proxy to the real test database that stops passing bytes on.
import net from "node:net";
import { Connection } from "@temporalio/client";
import { afterAll, describe, expect, it } from "vitest";
import { DATABASE_DOWN_MESSAGE, TEMPORAL_DOWN_MESSAGE, answerBusy, isDatabaseDownError, isTemporalDownError } from "~/server/host/busy.server";
import { createPrismaClient, prisma } from "~/core/db.server";

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

/**
 * A TCP proxy to the test database that can hang: while frozen it passes no byte either way (a PostgreSQL stopped
 * with SIGSTOP looks exactly so to its clients: connections open, nothing answered).
 */
async function freezableProxy(target: URL) {
  let frozen = false;
  const waiting: (() => void)[] = [];
  const sockets = new Set<net.Socket>();
  const pipe = (from: net.Socket, to: net.Socket) =>
    from.on("data", (chunk) => {
      if (!frozen) return void to.write(chunk);
      from.pause();
      waiting.push(() => {
        to.write(chunk);
        from.resume();
      });
    });
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port), target.hostname);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on("error", () => {});
      s.on("close", () => (client.destroy(), upstream.destroy(), sockets.delete(s)));
    }
    pipe(client, upstream);
    pipe(upstream, client);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const url = new URL(target);
  url.port = String((server.address() as net.AddressInfo).port);
  return {
    url: url.toString(),
    freeze: () => void (frozen = true),
    thaw: () => {
      frozen = false;
      for (const go of waiting.splice(0)) go();
    },
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise((r) => server.close(r));
    },
  };
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

  it("a hung database: a query it never answers fails after DATABASE_QUERY_TIMEOUT_MS with the same 503, and the app works again once it answers", async () => {
    const proxy = await freezableProxy(new URL(process.env.DATABASE_URL!));
    const hung = createPrismaClient(proxy.url, { size: 2, waitMs: 1000, queryTimeoutMs: 1000 });
    try {
      await expect(hung.user.count()).resolves.toBeGreaterThanOrEqual(0);
      proxy.freeze();
      const started = Date.now();
      const error = await thrownBy(() => hung.user.count());
      // not for ever: the query's own timeout (1 s here), with room for a busy machine
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(isDatabaseDownError(error)).toBe(true);
      // a page's request meanwhile: the timed-out connection was dropped, so this one opens a new connection, which
      // the hung server never accepts; the same 503, Retry-After and sentence (not the full pool's "busy")
      const answer = (await thrownBy(() => answerBusy(() => hung.user.count())())) as Response;
      expect(answer.status).toBe(503);
      expect(answer.headers.get("Retry-After")).toBe("5");
      expect(await answer.json()).toEqual({ message: DATABASE_DOWN_MESSAGE, unavailable: "database" });

      // answering again: the connections that waited are dropped, the next query gets an answer
      proxy.thaw();
      await expect.poll(() => hung.user.count().then(() => "answered", (e: Error) => e.message), { timeout: 10_000 }).toBe("answered");
    } finally {
      proxy.thaw();
      await hung.$disconnect().catch(() => {});
      await proxy.close();
    }
  });

  it("a working database's own errors stay errors (not 'down')", async () => {
    const error = await thrownBy(() => prisma.$queryRawUnsafe("SELECT * FROM no_such_table"));
    expect(isDatabaseDownError(error)).toBe(false);
    expect(isTemporalDownError(error)).toBe(false);
  });
});
