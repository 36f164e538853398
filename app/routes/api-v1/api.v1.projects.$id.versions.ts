import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { methodNotAllowed } from "~/server/api.server";
import { requireApiCaller } from "~/server/api-token-gate.server";
import { apiJson, asProblem, parseOr400, readApiBody } from "~/server/api-v1.server";
import { getProjectForUser } from "~/core/projects.server";
import { CreateVersionSchema, ProjectIdParamsSchema, VersionOptionsSchema, VersionSchema } from "~/server/api-v1-outputs.server";
import { createVersion, getVersionOptions } from "~/server/versions.server";

// GET /api/v1/projects/{id}/versions: the languages this server can translate the video into offline (issue 51).
export async function loader({ request, params }: LoaderFunctionArgs) {
  return asProblem(async () => {
    const { userId } = await requireApiCaller(request);
    const { id } = parseOr400(ProjectIdParamsSchema, params);
    return apiJson(VersionOptionsSchema, await getVersionOptions(userId, id));
  });
}

// POST /api/v1/projects/{id}/versions { language, voiceovers? } -> 201 the version (a new project, machine translated).
export async function action({ request, params }: ActionFunctionArgs) {
  return asProblem(async () => {
    if (request.method !== "POST") return methodNotAllowed(["GET", "POST"], "Use POST to make a version in another language.");
    const { userId } = await requireApiCaller(request);
    const { id } = parseOr400(ProjectIdParamsSchema, params);
    // the owner before the body: another creator's id is a 404 whatever was sent (decision 198)
    await getProjectForUser(userId, id);
    const body = await readApiBody(request, CreateVersionSchema);
    return apiJson(VersionSchema, await createVersion(userId, id, body), { status: 201 });
  });
}
