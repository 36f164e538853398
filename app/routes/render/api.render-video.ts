import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { methodNotAllowed, parseJsonBody } from "~/server/api.server";
import { requireUserId } from "~/server/auth.server";
import { startRender } from "~/server/render.server";

// The call has no payload; an empty object is accepted too, and an optional quality
// (720, 1080 or 2160: 4K and HD for premium, 720p for free).
const BodySchema = z.object({ quality: z.union([z.literal(720), z.literal(1080), z.literal(2160)]).optional() }).strict();

// POST /api/render-video: render the current project, refused unless every scene has an image and audio and
// no render is under way. The render runs on a worker; the page polls /api/render-progress.
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["POST"], "Use POST to start a render");
  const userId = await requireUserId(request);
  const { quality } = await parseJsonBody(request, BodySchema);
  const render = await startRender(userId, quality);
  return Response.json({ started: true, ...render }, { status: 202 });
}
