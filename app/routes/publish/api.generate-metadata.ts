import type { ActionFunctionArgs } from "@remix-run/node";
import { GenerateMetadataSchema } from "~/lib/upload-metadata";
import { methodNotAllowed, parseJsonBody } from "~/server/api.server";
import { requireUserId } from "~/server/auth.server";
import { generateUploadMetadata } from "~/server/thumbnail.server";

// POST /api/generate-metadata: script, title -> { description (<= 4,900 characters), tags (string[], <= 400
// characters together as "a, b, c"), source ("cloud" with the user's text-AI key, "offline" without) }.
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["POST"], "Use POST");
  const userId = await requireUserId(request);
  const body = await parseJsonBody(request, GenerateMetadataSchema);
  return Response.json(await generateUploadMetadata(userId, body), { headers: { "Cache-Control": "no-store" } });
}
