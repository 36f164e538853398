import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { methodNotAllowed } from "~/server/api.server";
import { requireApiCaller } from "~/server/api-token-gate.server";
import { apiJson, asProblem, parseOr400, readApiBody } from "~/server/api-v1.server";
import { getProjectTransitions, SetTransitionsSchema, setProjectTransitions, TransitionsSchema } from "~/server/api-v1-clips.server";
import { ProjectIdParamsSchema } from "~/server/api-v1-outputs.server";
import { getProjectForUser } from "~/core/projects.server";

// GET /api/v1/projects/{id}/transitions: the video's transition between scenes and each scene's own (issue 50).
export async function loader({ request, params }: LoaderFunctionArgs) {
  return asProblem(async () => {
    const { userId } = await requireApiCaller(request);
    const { id } = parseOr400(ProjectIdParamsSchema, params);
    return apiJson(TransitionsSchema, await getProjectTransitions(userId, id));
  });
}

// PUT /api/v1/projects/{id}/transitions { kind?, seconds?, perScene? } -> the transitions as saved.
export async function action({ request, params }: ActionFunctionArgs) {
  return asProblem(async () => {
    if (request.method !== "PUT") return methodNotAllowed(["GET", "PUT"], "Use PUT to set the transitions.");
    const { userId } = await requireApiCaller(request);
    const { id } = parseOr400(ProjectIdParamsSchema, params);
    await getProjectForUser(userId, id);
    const body = await readApiBody(request, SetTransitionsSchema);
    return apiJson(TransitionsSchema, await setProjectTransitions(userId, id, body));
  });
}
