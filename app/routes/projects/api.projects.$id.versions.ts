import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { methodNotAllowed, parseJsonBody } from "~/server/api.server";
import { requireUserId } from "~/server/auth.server";
import { getProjectForUser } from "~/core/projects.server";
import { createVersion, getVersionOptions, VersionRequestSchema } from "~/server/versions.server";

// GET /api/projects/{id}/versions: the languages this server can translate the video into (issue 51).
export async function loader({ request, params }: LoaderFunctionArgs) {
  const userId = await requireUserId(request);
  return Response.json(await getVersionOptions(userId, params.id!), { headers: { "Cache-Control": "no-store" } });
}

// POST /api/projects/{id}/versions { language, voiceovers? }: the video in another language, a new project -> 201.
export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["GET", "POST"], "Use POST to make a version in another language.");
  const userId = await requireUserId(request);
  // the owner before the body: another creator's id is a 404 whatever was sent (decision 198)
  await getProjectForUser(userId, params.id!);
  const body = await parseJsonBody(request, VersionRequestSchema);
  return Response.json(await createVersion(userId, params.id!, body), { status: 201 });
}
