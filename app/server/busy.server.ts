// "Reelsmith is busy": when the database pool has no connection to give in time (many creators at once), a
// request is answered 503 with Retry-After and a sentence, not a 500 with a stack trace in the log (decision 130).
// The web server wraps every route's loader and action with withBusyAnswers, so no route needs to think of it.
import type { ServerBuild } from "@remix-run/node";
import { jsonError } from "./api.server";
import { isDatabaseBusyError } from "./db.server";

export const BUSY_MESSAGE = "Reelsmith is busy; try again in a few seconds.";
export const BUSY_RETRY_AFTER_SECONDS = 5;

export function busyResponse(): Response {
  const response = jsonError(503, BUSY_MESSAGE, { busy: true });
  response.headers.set("Retry-After", String(BUSY_RETRY_AFTER_SECONDS));
  return response;
}

type Handler = (...args: never[]) => unknown;

/** A loader or action that answers busyResponse() when the database pool is exhausted; other errors pass. */
export function answerBusy<H extends Handler>(handler: H): H {
  const wrapped = async (...args: never[]) => {
    try {
      return await handler(...args);
    } catch (e) {
      if (isDatabaseBusyError(e)) {
        console.warn(`web: database pool exhausted, answered 503: ${e instanceof Error ? e.message : String(e)}`);
        throw busyResponse();
      }
      throw e;
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
