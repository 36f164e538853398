import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { jsonError, methodNotAllowed } from "~/server/api.server";
import { requireUserId } from "~/server/auth.server";
import { getCurrentProject } from "~/core/projects.server";
import { requestProject } from "~/server/status-request.server";
import { getGenerateAllProgress, startGenerateAll } from "~/server/storyboard.server";

// GET /api/generate-all-content: the Generate All run's progress (or its summary once done).
export async function loader({ request }: LoaderFunctionArgs) {
  const project = await requestProject(request);
  return Response.json({ progress: project ? await getGenerateAllProgress(project) : null }, { headers: { "Cache-Control": "no-store" } });
}

// POST /api/generate-all-content: fill every scene lacking an image or audio (one workflow per project).
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["GET", "HEAD", "POST"], "Use POST");
  const userId = await requireUserId(request);
  const project = await getCurrentProject(userId);
  if (!project) return jsonError(404, "No storyboard yet");
  return Response.json(await startGenerateAll(userId, project), { status: 202 });
}
