import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireApiCaller } from "~/server/api-token-gate.server";
import { apiJson, asProblem, parseOr400 } from "~/server/api-v1.server";
import { ProjectIdParamsSchema } from "~/server/api-v1-outputs.server";
import { getProjectStatus, ProjectStatusSchema } from "~/server/project-publish.server";

// GET /api/v1/projects/{id}: a project's render, newest finished video and YouTube upload, a Short's or a version's
// as any project's (issue 51).
export async function loader({ request, params }: LoaderFunctionArgs) {
  return asProblem(async () => {
    const { userId } = await requireApiCaller(request);
    const { id } = parseOr400(ProjectIdParamsSchema, params);
    return apiJson(ProjectStatusSchema, await getProjectStatus(userId, id));
  });
}
