import type { ActionFunctionArgs } from "@remix-run/node";
import { GenerateThumbnailSchema } from "~/lib/thumbnail";
import { methodNotAllowed, parseJsonBody } from "~/server/api.server";
import { requireUserId } from "~/server/auth.server";
import { generateThumbnail } from "~/server/thumbnail.server";

// POST /api/generate-thumbnail: imageUrl, title, cellIndex, fontFamily, fontValue, fontSize (and optionally the
// projectId; the current project otherwise) -> { success, thumbnailUrl, error }. Another user's image or project: 400/404.
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["POST"], "Use POST");
  const userId = await requireUserId(request);
  const body = await parseJsonBody(request, GenerateThumbnailSchema);
  const result = await generateThumbnail(userId, body);
  return Response.json({ success: true, thumbnailUrl: result.thumbnailUrl, fontSize: result.fontSize, error: null }, { headers: { "Cache-Control": "no-store" } });
}
