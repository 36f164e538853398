import type { ActionFunctionArgs } from "@remix-run/node";
import { methodNotAllowed } from "~/server/api.server";
import { requireUser } from "~/server/auth.server";
import { readDataUrlImage } from "~/server/data-url-upload.server";
import { saveWatermarkImage } from "~/server/uploads.server";

// POST /api/upload-watermark { imageData (data URL), fileName }: the older page's watermark upload (5 MB).
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["POST"], "Use POST to upload a watermark.");
  const user = await requireUser(request);
  const image = await readDataUrlImage(request, "watermark");
  const url = await saveWatermarkImage(user.id, image);
  return Response.json({ success: true, url, watermarkImageUrl: url });
}
