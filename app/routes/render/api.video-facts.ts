import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireUserId } from "~/server/auth.server";
import { getVideoFacts } from "~/server/video-facts.server";

// GET /api/video-facts: the current project's motion share and scene check summary (null without a project).
export async function loader({ request }: LoaderFunctionArgs) {
  const userId = await requireUserId(request);
  return Response.json({ facts: await getVideoFacts(userId) }, { headers: { "Cache-Control": "no-store" } });
}
