// Who asks and for which project, resolved at most once per request: the status routes and the progress event
// stream share these, so a request never looks up its session or current project twice (docs/decisions/132).
// A status request answered before Remix (app/server/host/status-routes.server.ts, decision 186) may also reuse what
// the same session's previous status request found, for up to CALLER_CACHE_MS: every other request carrying that
// session cookie through this web process forgets it when it starts and when it has been answered, so a sign-out,
// a project switch or an edit made here is seen by the next poll; one made elsewhere (another web process, the
// worker, an API token) within CALLER_CACHE_MS, and a sign-out elsewhere within SESSION_READ_CACHE_MS (decision 130).
import type { Project } from "~/generated/prisma/client";
import { requireUserId, signedOutResponse } from "./auth.server";
import { getCurrentProject } from "~/core/projects.server";
import { SESSION_COOKIE_NAME, SESSION_READ_CACHE_MS, getSessionUser } from "./session.server";

type Resolved = { userId?: Promise<string>; project?: Promise<Project | null> };
const resolved = new WeakMap<Request, Resolved>();

function memo(request: Request): Resolved {
  let entry = resolved.get(request);
  if (!entry) {
    entry = {};
    resolved.set(request, entry);
  }
  return entry;
}

/** The signed-in user's id; signed out, throws the 401 JSON response (as requireUserId does). */
export function requestUserId(request: Request): Promise<string> {
  const entry = memo(request);
  entry.userId ??= recentCaller(request)?.then((caller) => caller.userId) ?? requireUserId(request);
  return entry.userId;
}

/** The signed-in user's current project (null: none yet). */
export function requestProject(request: Request): Promise<Project | null> {
  const entry = memo(request);
  entry.project ??= recentCaller(request)?.then((caller) => caller.project) ?? requestUserId(request).then(getCurrentProject);
  return entry.project;
}

// ── the status routes' callers, remembered briefly per session (decision 186) ───────────────────────

/** How long a status request may reuse its session's user and current project. */
export const CALLER_CACHE_MS = 1000;
const CALLER_CACHE_MAX = 20_000;

type Caller = { userId: string; project: Project | null };
type CallerEntry = { at: number; sessionReadAt: number; caller: Promise<Caller> };
/** On globalThis: server.ts loads this module from the sources, the routes from the server build. */
type CallerStore = { entries: Map<string, CallerEntry>; reusable: WeakSet<Request> };

declare global {
  var __reelsmithStatusCallers: CallerStore | undefined;
}

function store(): CallerStore {
  globalThis.__reelsmithStatusCallers ??= { entries: new Map(), reusable: new WeakSet() };
  return globalThis.__reelsmithStatusCallers;
}

/** The session cookie's signed value in a Cookie header (a key only: it is verified when a caller is loaded). */
export function sessionCookieValue(cookieHeader: string | null | undefined): string | null {
  if (!cookieHeader) return null;
  const at = cookieHeader.indexOf(`${SESSION_COOKIE_NAME}=`);
  if (at < 0 || (at > 0 && !/[;\s]/.test(cookieHeader[at - 1]!))) return null;
  const start = at + SESSION_COOKIE_NAME.length + 1;
  const end = cookieHeader.indexOf(";", start);
  return cookieHeader.slice(start, end < 0 ? undefined : end).trim() || null;
}

/** Marks a status request (made by the fast path) as one that may reuse its session's recent caller. */
export function mayReuseCaller(request: Request): void {
  store().reusable.add(request);
}

/** Forgets what a session's status requests found (called for every other request carrying the cookie). */
export function forgetCaller(cookieHeader: string | null | undefined): void {
  const key = sessionCookieValue(cookieHeader);
  if (key) store().entries.delete(key);
}

/** How many sessions' callers are remembered (tests). */
export function rememberedCallers(): number {
  return store().entries.size;
}

function recentCaller(request: Request): Promise<Caller> | null {
  const { entries, reusable } = store();
  if (!reusable.has(request)) return null;
  const key = sessionCookieValue(request.headers.get("Cookie"));
  if (!key) return null;
  const now = Date.now();
  const known = entries.get(key);
  if (known && now - known.at < CALLER_CACHE_MS && now - known.sessionReadAt < SESSION_READ_CACHE_MS) return known.caller;
  const entry = { at: now, sessionReadAt: now } as CallerEntry;
  entry.caller = loadCaller(request, entry);
  // signed out or failed: nothing is remembered (a forget while loading has already dropped the entry)
  entry.caller.catch(() => entries.get(key) === entry && entries.delete(key));
  if (entries.size >= CALLER_CACHE_MAX) {
    for (const [k, e] of entries) if (now - e.at >= CALLER_CACHE_MS) entries.delete(k);
    if (entries.size >= CALLER_CACHE_MAX) entries.clear();
  }
  entries.set(key, entry);
  return entry.caller;
}

async function loadCaller(request: Request, entry: CallerEntry): Promise<Caller> {
  const session = await getSessionUser(request.headers.get("Cookie"));
  if (!session) throw signedOutResponse(request);
  entry.sessionReadAt = session.readAt;
  return { userId: session.userId, project: await getCurrentProject(session.userId) };
}
