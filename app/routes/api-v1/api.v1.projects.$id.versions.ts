import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { methodNotAllowed } from "~/server/api.server";
import { requireApiCaller } from "~/server/api-token-gate.server";
import { asProblem, parseOr400, readApiBody } from "~/server/api-v1.server";
import { getProjectForUser } from "~/server/projects.server";
import { createVersion, getVersionOptions, VersionRequestSchema } from "~/server/versions.server";

const ParamsSchema = z.object({ id: z.string().min(1).max(64) });

// GET /api/v1/projects/{id}/versions: the languages this server can translate the video into offline (issue 51).
export async function loader({ request, params }: LoaderFunctionArgs) {
  return asProblem(async () => {
    const { userId } = await requireApiCaller(request);
    const { id } = parseOr400(ParamsSchema, params);
    return Response.json(await getVersionOptions(userId, id), { headers: { "Cache-Control": "no-store" } });
  });
}

// POST /api/v1/projects/{id}/versions { language, voiceovers? } -> 201 the version (a new project, machine translated).
export async function action({ request, params }: ActionFunctionArgs) {
  return asProblem(async () => {
    if (request.method !== "POST") return methodNotAllowed(["GET", "POST"], "Use POST to make a version in another language.");
    const { userId } = await requireApiCaller(request);
    const { id } = parseOr400(ParamsSchema, params);
    // the owner before the body: another creator's id is a 404 whatever was sent (decision 198)
    await getProjectForUser(userId, id);
    const body = await readApiBody(request, VersionRequestSchema);
    return Response.json(await createVersion(userId, id, body), { status: 201, headers: { "Cache-Control": "no-store" } });
  });
}
