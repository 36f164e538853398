// "Reelsmith is busy" and "a part is not answering": when the database pool has no connection to give in time
// (many creators at once, decision 130), or the database or Temporal is down (issue 31), a request is answered
// 503 with Retry-After and a sentence a creator understands, not a 500 "Something went wrong". Pages show the
// sentence and retry by themselves (app/root.tsx). The web server wraps every route's loader and action with
// withBusyAnswers, so no route needs to think of it.
import type { ServerBuild } from "@remix-run/node";
import { jsonError, refusalResponse } from "../api.server";
import { isDatabaseBusyError } from "~/core/db.server";
import { isRefusal } from "~/core/refusal.server";

export const BUSY_MESSAGE = "Reelsmith is busy; try again in a few seconds.";
export const DATABASE_DOWN_MESSAGE = "Reelsmith's database is not answering; your work is safe; this page retries by itself.";
export const TEMPORAL_DOWN_MESSAGE = "Reelsmith's job service is not answering; your work is safe; this page retries by itself.";
export const BUSY_RETRY_AFTER_SECONDS = 5;

function unavailable(message: string, extra: Record<string, unknown>): Response {
  const response = jsonError(503, message, extra);
  response.headers.set("Retry-After", String(BUSY_RETRY_AFTER_SECONDS));
  return response;
}

export function busyResponse(): Response {
  return unavailable(BUSY_MESSAGE, { busy: true });
}

const causes = (error: unknown): unknown[] => {
  const chain: unknown[] = [];
  for (let e: unknown = error; e && chain.length < 5; e = (e as { cause?: unknown }).cause) chain.push(e);
  return chain;
};
const textOf = (e: unknown) => `${(e as { name?: unknown }).name ?? ""} ${(e as { code?: unknown }).code ?? ""} ${e instanceof Error ? e.message : String(e)}`;

/**
 * PostgreSQL down, restarting or hung: refused or dropped connections, Prisma's "can't reach the database" (P1001),
 * a query it never answered (node-postgres' query_timeout) or a new connection it never accepted (decision 193).
 */
export function isDatabaseDownError(error: unknown): boolean {
  return causes(error).some((e) => {
    const text = textOf(e);
    if (/\b(P1001|P1017|57P01|57P03)\b/.test(text)) return true;
    if (/Query read timeout|Connection terminated due to connection timeout/.test(text)) return true;
    return /PrismaClient|DriverAdapterError|pg|postgres/i.test(text) && /ECONNREFUSED|ECONNRESET|Connection terminated|the database system is (starting up|shutting down)/i.test(text);
  });
}

/** Temporal down: the client cannot connect, or the server answers UNAVAILABLE. */
export function isTemporalDownError(error: unknown): boolean {
  return causes(error).some((e) => {
    const text = textOf(e);
    // Connection.connect's own failure, or a call's ServiceError caused by gRPC's code 14
    return /Failed to connect before the deadline|\b14 UNAVAILABLE\b/.test(text) || (/ServiceError|TransportError/.test(text) && /UNAVAILABLE|ECONNREFUSED/.test(text));
  });
}

type Handler = (...args: never[]) => unknown;

/** The 503 answer for an error that means "busy" or "a part is down" (logged with its reason), else null. */
export function unavailableResponseFor(e: unknown): Response | null {
  const why = e instanceof Error ? e.message : String(e);
  if (isDatabaseBusyError(e)) {
    console.warn(`web: database pool exhausted, answered 503: ${why}`);
    return busyResponse();
  }
  if (isDatabaseDownError(e)) {
    console.warn(`web: database not answering, answered 503: ${why}`);
    return unavailable(DATABASE_DOWN_MESSAGE, { unavailable: "database" });
  }
  if (isTemporalDownError(e)) {
    console.warn(`web: Temporal not answering, answered 503: ${why}`);
    return unavailable(TEMPORAL_DOWN_MESSAGE, { unavailable: "temporal" });
  }
  return null;
}

/** A loader or action that answers 503 when the database pool is exhausted or a part is down; other errors pass. */
export function answerBusy<H extends Handler>(handler: H): H {
  const wrapped = async (...args: never[]) => {
    try {
      return await handler(...args);
    } catch (e) {
      if (e instanceof Response) throw e;
      // a refusal of the core, said as the pages and /api say it: { message, field } JSON with its status
      if (isRefusal(e)) throw refusalResponse(e);
      throw unavailableResponseFor(e) ?? e;
    }
  };
  return wrapped as H;
}

const wrappedBuilds = new WeakMap<ServerBuild, ServerBuild>();

/** The same build with every route's loader and action wrapped in answerBusy (once per build: dev reloads make new ones). */
export function withBusyAnswers(build: ServerBuild): ServerBuild {
  const known = wrappedBuilds.get(build);
  if (known) return known;
  const routes = Object.fromEntries(
    Object.entries(build.routes).map(([id, route]) => {
      const module = { ...route.module };
      if (module.loader) module.loader = answerBusy(module.loader);
      if (module.action) module.action = answerBusy(module.action);
      return [id, { ...route, module }];
    }),
  );
  const wrapped = { ...build, routes };
  wrappedBuilds.set(build, wrapped);
  return wrapped;
}
