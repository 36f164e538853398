// One Prisma client per process, over node-postgres (@prisma/adapter-pg), with a pool sized on purpose
// (DATABASE_POOL_SIZE; decision 130) and a bounded wait for a connection, so an exhausted pool answers
// "busy" (503, app/server/host/busy.server.ts) instead of hanging.
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient, type Prisma } from "~/generated/prisma/client";
import { getEnv } from "./env.server";

declare global {
  var __reelsmithPrisma: PrismaClient | undefined;
}

/** The global client or a transaction's: what a function takes when it may run inside a caller's transaction. */
export type DbClient = PrismaClient | Prisma.TransactionClient;

/** How long a query waits for a free pool connection before it fails as "busy". */
export const POOL_WAIT_MS = 10_000;

export function createPrismaClient(databaseUrl: string, pool: { size?: number; waitMs?: number; queryTimeoutMs?: number } = {}) {
  const max = pool.size ?? getEnv().DATABASE_POOL_SIZE;
  // query_timeout: a query a hung server never answers fails (node-postgres' "Query read timeout"), and the pool
  // drops that connection (decision 193)
  return new PrismaClient({
    adapter: new PrismaPg({ connectionString: databaseUrl, max, connectionTimeoutMillis: pool.waitMs ?? POOL_WAIT_MS, query_timeout: pool.queryTimeoutMs ?? getEnv().DATABASE_QUERY_TIMEOUT_MS }),
  });
}

// Kept on globalThis so Vite's hot reload does not open a new pool on every change.
export const prisma: PrismaClient = (globalThis.__reelsmithPrisma ??= createPrismaClient(getEnv().DATABASE_URL));

/**
 * True for the errors of a database that is there but has no connection to give in time: node-postgres' pool
 * wait ("timeout exceeded when trying to connect"), Prisma's "could not start the transaction in time" (P2028
 * on start) and "timed out fetching a connection" (P2024). Not for a database that is down or a query's own error.
 */
export function isDatabaseBusyError(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    const message = e instanceof Error ? e.message : typeof e === "string" ? e : "";
    if (code === "P2024") return true;
    if (code === "P2028" && /unable to start a transaction in the given time/i.test(message)) return true;
    if (/timeout exceeded when trying to connect|timed out fetching a new connection/i.test(message)) return true;
  }
  return false;
}
