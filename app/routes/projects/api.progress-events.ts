import type { LoaderFunctionArgs } from "@remix-run/node";
import { jsonError } from "~/server/api.server";
import { isProgressStage, PROGRESS_STAGES, progressEventStream } from "~/server/progress-events.server";
import { getProjectForUser } from "~/core/projects.server";
import { requestProject, requestUserId } from "~/server/status-request.server";

// GET /api/progress-events?stage=render|script|storyboard|generate-all|music|upload[&projectId=…]: server-sent
// events with the stage's status JSON whenever it changes, ending with the run (docs/decisions/132). Without
// projectId it follows the current project; another user's project is a 404, as everywhere.
export async function loader({ request }: LoaderFunctionArgs) {
  const userId = await requestUserId(request);
  const params = new URL(request.url).searchParams;
  const stage = params.get("stage");
  if (!isProgressStage(stage)) {
    return jsonError(400, `stage must be one of ${Object.keys(PROGRESS_STAGES).join(", ")}.`, { field: "stage" });
  }
  const projectId = params.get("projectId");
  const project = projectId ? await getProjectForUser(userId, projectId) : await requestProject(request);
  if (!project) return jsonError(404, "No project yet. Create a video on the Create page first.");
  // a HEAD gets the headers only: a stream nobody reads would tick until its run ends
  if (request.method === "HEAD") return new Response(null, { headers: { "Content-Type": "text/event-stream; charset=utf-8", "Cache-Control": "no-store" } });
  return progressEventStream(request, project, stage);
}
