import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { CLIP_PRICES } from "~/lib/clip-prices";
import { animatingScenes, cancelAnimateScenes, startAnimateScenes } from "~/server/ai-clips.server";
import { jsonError, methodNotAllowed, parseJsonBody } from "~/server/api.server";
import { requireUserId } from "~/server/auth.server";
import { clipEstimateFor, clipSpendFor } from "~/core/clip-budget.server";
import { requireCurrentProject } from "~/core/projects.server";

const Provider = z.enum(["veo", "runway"], { message: "provider must be veo or runway" });
const BodySchema = z.object({
  provider: Provider,
  source: z.enum(["picture", "words"], { message: "source must be picture or words" }),
  cellIndexes: z.array(z.number().int().min(0).max(999)).min(1, "Choose at least one scene").max(240),
});


// GET /api/ai-clips?provider=veo&cells=0,2: the estimate per scene and for the video (before anything starts), the
// budget's figures, what this video's clips cost so far, the price table, and whether a request is running.
export async function loader({ request }: LoaderFunctionArgs) {
  const userId = await requireUserId(request);
  const project = await requireCurrentProject(userId, "projectId");
  const url = new URL(request.url);
  const provider = Provider.safeParse(url.searchParams.get("provider") ?? "veo");
  if (!provider.success) throw jsonError(400, "provider must be veo or runway", { field: "provider" });
  const cells = url.searchParams.get("cells");
  const cellIndexes = cells ? cells.split(",").map(Number).filter((n) => Number.isInteger(n) && n >= 0 && n < 1000) : undefined;
  const [estimate, spend, running] = await Promise.all([clipEstimateFor(userId, project.id, provider.data, cellIndexes), clipSpendFor(userId, project.id), animatingScenes(project)]);
  return Response.json({ estimate, spend, running, prices: CLIP_PRICES }, { headers: { "Cache-Control": "no-store" } });
}

// POST /api/ai-clips {provider, source, cellIndexes}: animate scenes (refused with the figures, 402, over budget).
// DELETE /api/ai-clips: cancel the running request.
export async function action({ request }: ActionFunctionArgs) {
  const userId = await requireUserId(request);
  if (request.method === "DELETE") {
    await cancelAnimateScenes(await requireCurrentProject(userId, "projectId"));
    return Response.json({ cancelled: true });
  }
  if (request.method !== "POST") return methodNotAllowed(["GET", "HEAD", "POST", "DELETE"], "Use POST");
  const project = await requireCurrentProject(userId, "projectId");
  const body = await parseJsonBody(request, BodySchema);
  return Response.json(await startAnimateScenes(userId, project, body), { status: 202 });
}
