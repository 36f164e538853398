import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { methodNotAllowed, parseJsonBody } from "~/server/api.server";
import { requireUserId } from "~/server/auth.server";
import { disconnectYoutube } from "~/server/youtube.server";

const BodySchema = z.object({}).strict();

// POST /api/youtube/disconnect: forget the creator's YouTube tokens (and revoke them at Google).
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["POST"], "Use POST to disconnect YouTube.");
  const userId = await requireUserId(request);
  await parseJsonBody(request, BodySchema);
  await disconnectYoutube(userId);
  return Response.json({ success: true });
}
