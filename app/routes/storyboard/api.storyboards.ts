import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireUserId } from "~/server/auth.server";
import { getCurrentProject } from "~/core/projects.server";
import { listCells } from "~/server/storyboard.server";

// GET /api/storyboards: the current project's scenes, in order.
export async function loader({ request }: LoaderFunctionArgs) {
  const userId = await requireUserId(request);
  const project = await getCurrentProject(userId);
  const storyboardCells = project ? await listCells(project.id) : [];
  return Response.json({ title: project?.title ?? null, storyboardCells }, { headers: { "Cache-Control": "no-store" } });
}
