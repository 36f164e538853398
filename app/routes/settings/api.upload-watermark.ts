import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { jsonError, methodNotAllowed, parseJsonBody } from "~/server/api.server";
import { requireUser } from "~/server/auth.server";
import { checkImageUpload, decodeDataUrl, decodedSizeOf, saveWatermarkImage, UPLOAD_RULES, UploadRejection } from "~/server/uploads.server";

const Body = z.object({
  imageData: z.string().min(1, "Choose an image to upload.").startsWith("data:", "imageData must be a data URL."),
  fileName: z.string().max(255).optional(),
});

// POST /api/upload-watermark { imageData (data URL), fileName }: the older page's watermark upload (5 MB).
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["POST"], "Use POST to upload a watermark.");
  const user = await requireUser(request);
  const rule = UPLOAD_RULES.watermark;
  const tooLarge = `File too large: the watermark must be ${rule.maxBytes / (1024 * 1024)} MB or smaller.`;
  if (decodedSizeOf(Number(request.headers.get("Content-Length") ?? 0)) > rule.maxBytes + 64 * 1024) {
    return jsonError(413, tooLarge, { field: "imageData" });
  }
  // a body past the cap (no Content-Length, or a wrong one) is the same 'File too large' as a declared one
  const body = await parseJsonBody(request, Body, { maxBytes: Math.ceil((rule.maxBytes * 4) / 3) + 64 * 1024 }).catch((e: unknown) => {
    throw e instanceof Response && e.status === 413 ? jsonError(413, tooLarge, { field: "imageData" }) : e;
  });
  try {
    const { mimeType, data } = decodeDataUrl(body.imageData);
    const image = await checkImageUpload("watermark", { data, fileName: body.fileName, declaredMimeType: mimeType });
    const url = await saveWatermarkImage(user.id, image);
    return Response.json({ success: true, url, watermarkImageUrl: url });
  } catch (e) {
    if (e instanceof UploadRejection) return jsonError(e.status, e.message, { field: "imageData" });
    throw e;
  }
}
