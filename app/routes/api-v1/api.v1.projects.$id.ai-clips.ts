import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { methodNotAllowed } from "~/server/api.server";
import { requireApiCaller } from "~/server/api-token-gate.server";
import { apiJson, asProblem, parseOr400, readApiBody } from "~/server/api-v1.server";
import { AiClipEstimateQuerySchema, AiClipStatusSchema, AnimateScenesSchema, AnimateStartedSchema, animateProjectScenes, getAiClipStatus } from "~/server/api-v1-clips.server";
import { ProjectIdParamsSchema } from "~/server/api-v1-outputs.server";
import { getProjectForUser } from "~/core/projects.server";

// GET /api/v1/projects/{id}/ai-clips?provider=veo&cells=0,2: the estimate, the spend, whether a request runs (issue 50).
export async function loader({ request, params }: LoaderFunctionArgs) {
  return asProblem(async () => {
    const { userId } = await requireApiCaller(request);
    const { id } = parseOr400(ProjectIdParamsSchema, params);
    const query = parseOr400(AiClipEstimateQuerySchema, Object.fromEntries(new URL(request.url).searchParams));
    return apiJson(AiClipStatusSchema, await getAiClipStatus(userId, id, query));
  });
}

// POST /api/v1/projects/{id}/ai-clips { provider, source?, cellIndexes, budget } -> 202 started, or 402 with the figures.
export async function action({ request, params }: ActionFunctionArgs) {
  return asProblem(async () => {
    if (request.method !== "POST") return methodNotAllowed(["GET", "POST"], "Use POST to animate scenes.");
    const { userId } = await requireApiCaller(request);
    const { id } = parseOr400(ProjectIdParamsSchema, params);
    // the owner before the body: another creator's id is a 404 whatever was sent (decision 198)
    await getProjectForUser(userId, id);
    const body = await readApiBody(request, AnimateScenesSchema);
    return apiJson(AnimateStartedSchema, await animateProjectScenes(userId, id, body), { status: 202 });
  });
}
