import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { VideoDetailsSchema } from "~/lib/video-details";
import { methodNotAllowed, parseJsonBody } from "~/server/api.server";
import { requireUserId } from "~/server/auth.server";
import { resolutionEnum } from "~/lib/video-format";
import { createProject, listProjectsWithStage } from "~/core/projects.server";

// GET /api/projects: the user's projects with their stage, newest first.
export async function loader({ request }: LoaderFunctionArgs) {
  const userId = await requireUserId(request);
  return Response.json(await listProjectsWithStage(userId));
}

// POST /api/projects { title, topic, resolution, duration }: a new project, made current (free accounts: one).
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["GET", "HEAD", "POST"], "Use POST to create a project.");
  const userId = await requireUserId(request);
  const details = await parseJsonBody(request, VideoDetailsSchema);
  const project = await createProject(userId, {
    title: details.title,
    topic: details.topic,
    resolution: resolutionEnum(details.resolution),
    durationSeconds: details.duration,
  });
  return Response.json({ id: project.id, title: project.title }, { status: 201 });
}
