import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { methodNotAllowed, parseJsonBody } from "~/server/api.server";
import { requireUserId } from "~/server/auth.server";
import { approveThumbnail } from "~/server/thumbnail.server";

const BodySchema = z.object({ thumbnailUrl: z.string({ message: "thumbnailUrl: the thumbnail to approve" }).min(1).max(500) });

// POST /api/approve-thumbnail: thumbnailUrl -> the project's approved thumbnail (the upload sets it on the video).
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["POST"], "Use POST");
  const userId = await requireUserId(request);
  const { thumbnailUrl } = await parseJsonBody(request, BodySchema);
  const thumbnail = await approveThumbnail(userId, thumbnailUrl);
  return Response.json({ success: true, thumbnail }, { headers: { "Cache-Control": "no-store" } });
}
