// Who asks and for which project, resolved at most once per request: the status routes and the progress event
// stream share these, so a request never looks up its session or current project twice (docs/decisions/132).
import type { Project } from "~/generated/prisma/client";
import { requireUserId } from "./auth.server";
import { getCurrentProject } from "./projects.server";

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
  entry.userId ??= requireUserId(request);
  return entry.userId;
}

/** The signed-in user's current project (null: none yet). */
export function requestProject(request: Request): Promise<Project | null> {
  const entry = memo(request);
  entry.project ??= requestUserId(request).then(getCurrentProject);
  return entry.project;
}
