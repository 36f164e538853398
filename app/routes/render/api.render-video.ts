import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { jsonError, parseJsonBody } from "~/server/api.server";
import { requireUserId } from "~/server/auth.server";
import { startRender } from "~/server/render.server";

// The call has no payload; an empty object is accepted too.
const BodySchema = z.object({}).strict();

// POST /api/render-video: render the current project, refused unless every scene has an image and audio and
// no render is under way. The render runs on a worker; the page polls /api/render-progress.
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return jsonError(405, "Use POST to start a render");
  const userId = await requireUserId(request);
  await parseJsonBody(request, BodySchema);
  const render = await startRender(userId);
  return Response.json({ started: true, ...render }, { status: 202 });
}
