import type { ActionFunctionArgs } from "@remix-run/node";
import { methodNotAllowed } from "~/server/api.server";
import { requireApiCaller } from "~/server/api-token-gate.server";
import { apiJson, asProblem, parseOr400, readApiBody } from "~/server/api-v1.server";
import { getProjectForUser } from "~/core/projects.server";
import { ProjectIdParamsSchema } from "~/server/api-v1-outputs.server";
import { PublishProjectSchema, PublishStartedSchema, publishProject } from "~/server/project-publish.server";

// POST /api/v1/projects/{id}/publish { title?, description?, tags?, privacyStatus?, publishAt?, ... } -> 202: uploads
// the project's newest finished render to YouTube (a Short or a version by its id, issue 51), as the Upload page does.
export async function action({ request, params }: ActionFunctionArgs) {
  return asProblem(async () => {
    if (request.method !== "POST") return methodNotAllowed(["POST"], "Use POST to publish.");
    const { userId } = await requireApiCaller(request);
    const { id } = parseOr400(ProjectIdParamsSchema, params);
    await getProjectForUser(userId, id);
    const body = await readApiBody(request, PublishProjectSchema);
    return apiJson(PublishStartedSchema, await publishProject(userId, id, body), { status: 202 });
  });
}
