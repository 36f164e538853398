import type { ActionFunctionArgs } from "@remix-run/node";
import { methodNotAllowed } from "~/server/api.server";
import { requireApiCaller } from "~/server/api-token-gate.server";
import { apiJson, asProblem, parseOr400, readApiBody } from "~/server/api-v1.server";
import { getProjectForUser } from "~/core/projects.server";
import { ProjectIdParamsSchema } from "~/server/api-v1-outputs.server";
import { RenderProjectSchema, RenderStartedSchema, renderProject } from "~/server/project-publish.server";

// POST /api/v1/projects/{id}/render { quality? } -> 202: renders the project (a Short or a version by its id, issue 51)
// with the Render page's renderers and rules; GET /api/v1/projects/{id} follows it.
export async function action({ request, params }: ActionFunctionArgs) {
  return asProblem(async () => {
    if (request.method !== "POST") return methodNotAllowed(["POST"], "Use POST to start a render.");
    const { userId } = await requireApiCaller(request);
    const { id } = parseOr400(ProjectIdParamsSchema, params);
    // the owner before the body: another creator's id is a 404 whatever was sent (decision 198)
    await getProjectForUser(userId, id);
    const { quality } = await readApiBody(request, RenderProjectSchema);
    return apiJson(RenderStartedSchema, await renderProject(userId, id, quality), { status: 202 });
  });
}
