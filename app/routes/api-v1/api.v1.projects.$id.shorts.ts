import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { methodNotAllowed } from "~/server/api.server";
import { requireApiCaller } from "~/server/api-token-gate.server";
import { apiJson, asProblem, parseOr400, readApiBody } from "~/server/api-v1.server";
import { getProjectForUser } from "~/core/projects.server";
import { CreateShortSchema, ProjectIdParamsSchema, ShortOptionsQuerySchema, ShortOptionsSchema, ShortSchema } from "~/server/api-v1-outputs.server";
import { createShort, getShortOptions } from "~/server/shorts.server";

// GET /api/v1/projects/{id}/shorts?maxSeconds=60: the video's scenes and the suggested runs for Shorts (issue 51).
export async function loader({ request, params }: LoaderFunctionArgs) {
  return asProblem(async () => {
    const { userId } = await requireApiCaller(request);
    const { id } = parseOr400(ProjectIdParamsSchema, params);
    const { maxSeconds } = parseOr400(ShortOptionsQuerySchema, Object.fromEntries(new URL(request.url).searchParams));
    return apiJson(ShortOptionsSchema, await getShortOptions(userId, id, maxSeconds));
  });
}

// POST /api/v1/projects/{id}/shorts { fromScene, toScene, hook?, maxSeconds? } -> 201 the Short (a new 9:16 project).
export async function action({ request, params }: ActionFunctionArgs) {
  return asProblem(async () => {
    if (request.method !== "POST") return methodNotAllowed(["GET", "POST"], "Use POST to make a Short.");
    const { userId } = await requireApiCaller(request);
    const { id } = parseOr400(ProjectIdParamsSchema, params);
    // the owner before the body: another creator's id is a 404 whatever was sent (decision 198)
    await getProjectForUser(userId, id);
    const body = await readApiBody(request, CreateShortSchema);
    return apiJson(ShortSchema, await createShort(userId, id, body), { status: 201 });
  });
}
