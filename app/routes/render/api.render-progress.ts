import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireUserId } from "~/server/auth.server";
import { getRenderProgress } from "~/server/render.server";

// GET /api/render-progress: the current project's render progress, polled every 2 s while a render is active.
export async function loader({ request }: LoaderFunctionArgs) {
  const userId = await requireUserId(request);
  return Response.json(await getRenderProgress(userId), { headers: { "Cache-Control": "no-store" } });
}
