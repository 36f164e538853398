import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireUserId } from "~/server/auth.server";
import { getLatestVideo } from "~/server/render.server";

// GET /api/latest-video: the current project's newest rendered video ({ videoUrl: null } when there is none).
export async function loader({ request }: LoaderFunctionArgs) {
  const userId = await requireUserId(request);
  return Response.json(await getLatestVideo(userId), { headers: { "Cache-Control": "no-store" } });
}
