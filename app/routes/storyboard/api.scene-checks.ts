import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { MAX_SCENE_INDEX, methodNotAllowed, parseJsonBody } from "~/server/api.server";
import { requireUserId } from "~/server/auth.server";
import { requireCurrentProject } from "~/core/projects.server";
import { checkingScenes, currentSceneChecks, remakeCheckedScene, sceneCheckSummary, startSceneCheck } from "~/server/scene-check.server";

const BodySchema = z.discriminatedUnion("action", [
  z.object({ action: z.literal("check"), cellIndexes: z.array(z.number().int().min(0).max(MAX_SCENE_INDEX)).min(1).max(240).optional() }),
  z.object({ action: z.literal("remake"), cellIndex: z.number({ message: "cellIndex must be a number" }).int().min(0).max(MAX_SCENE_INDEX) }),
], { message: "action must be check or remake" });


// GET /api/scene-checks: each scene's check (for its current picture), how many passed, and whether a check runs.
export async function loader({ request }: LoaderFunctionArgs) {
  const userId = await requireUserId(request);
  const project = await requireCurrentProject(userId, "projectId");
  const [checks, summary, running] = await Promise.all([currentSceneChecks(project.id), sceneCheckSummary(project.id), checkingScenes(project)]);
  return Response.json({ checks: [...checks.values()], summary, running }, { headers: { "Cache-Control": "no-store" } });
}

// POST /api/scene-checks {action: "check", cellIndexes?}: check the scenes against what is said (202, in a workflow).
// POST /api/scene-checks {action: "remake", cellIndex}: make a marked scene's picture again from the corrected prompt.
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["GET", "HEAD", "POST"], "Use POST");
  const userId = await requireUserId(request);
  const project = await requireCurrentProject(userId, "projectId");
  const body = await parseJsonBody(request, BodySchema);
  if (body.action === "check") return Response.json(await startSceneCheck(userId, project, body.cellIndexes), { status: 202 });
  return Response.json(await remakeCheckedScene(userId, project, body.cellIndex));
}
