import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { methodNotAllowed } from "~/server/api.server";
import { requireApiCaller } from "~/server/api-token-gate.server";
import { asProblem, parseOr400, readApiBody } from "~/server/api-v1.server";
import { getProjectForUser } from "~/server/projects.server";
import { createShort, getShortOptions, SHORT_DEFAULT_SECONDS, SHORT_MAX_SECONDS, ShortRequestSchema } from "~/server/shorts.server";

const ParamsSchema = z.object({ id: z.string().min(1).max(64) });
const QuerySchema = z.object({ maxSeconds: z.coerce.number().int().min(10).max(SHORT_MAX_SECONDS).default(SHORT_DEFAULT_SECONDS) }).strict();

// GET /api/v1/projects/{id}/shorts?maxSeconds=60: the video's scenes and the suggested runs for Shorts (issue 51).
export async function loader({ request, params }: LoaderFunctionArgs) {
  return asProblem(async () => {
    const { userId } = await requireApiCaller(request);
    const { id } = parseOr400(ParamsSchema, params);
    const { maxSeconds } = parseOr400(QuerySchema, Object.fromEntries(new URL(request.url).searchParams));
    return Response.json(await getShortOptions(userId, id, maxSeconds), { headers: { "Cache-Control": "no-store" } });
  });
}

// POST /api/v1/projects/{id}/shorts { fromScene, toScene, hook?, maxSeconds? } -> 201 the Short (a new 9:16 project).
export async function action({ request, params }: ActionFunctionArgs) {
  return asProblem(async () => {
    if (request.method !== "POST") return methodNotAllowed(["GET", "POST"], "Use POST to make a Short.");
    const { userId } = await requireApiCaller(request);
    const { id } = parseOr400(ParamsSchema, params);
    // the owner before the body: another creator's id is a 404 whatever was sent (decision 198)
    await getProjectForUser(userId, id);
    const body = await readApiBody(request, ShortRequestSchema);
    return Response.json(await createShort(userId, id, body), { status: 201, headers: { "Cache-Control": "no-store" } });
  });
}
