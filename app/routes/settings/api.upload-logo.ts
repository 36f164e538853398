import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { jsonError, methodNotAllowed, parseJsonBody } from "~/server/api.server";
import { requireUser } from "~/server/auth.server";
import { isOwner } from "~/server/permissions.server";
import {
  checkImageUpload,
  decodeDataUrl,
  decodedSizeOf,
  removeBrandingImage,
  saveBrandingImage,
  UPLOAD_RULES,
  UploadRejection,
} from "~/server/uploads.server";

const Body = z.object({
  imageData: z.string().min(1, "Choose an image to upload.").startsWith("data:", "imageData must be a data URL."),
  fileName: z.string().max(255).optional(),
});

// POST /api/upload-logo { imageData, fileName }: the older page's logo upload. DELETE: removes the logo.
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  if (!isOwner(user)) return jsonError(403, "Only the owner account can change the logo.", { field: "imageData" });

  if (request.method === "DELETE") {
    const branding = await removeBrandingImage("logo");
    return Response.json({ success: true, ...branding });
  }
  if (request.method !== "POST") return methodNotAllowed(["POST", "DELETE"], "Use POST to upload a logo or DELETE to remove it.");

  const rule = UPLOAD_RULES.logo;
  const tooLarge = `File too large: the logo must be ${rule.maxBytes / (1024 * 1024)} MB or smaller.`;
  if (decodedSizeOf(Number(request.headers.get("Content-Length") ?? 0)) > rule.maxBytes + 64 * 1024) {
    return jsonError(413, tooLarge, { field: "imageData" });
  }
  // a body past the cap (no Content-Length, or a wrong one) is the same 'File too large' as a declared one
  const body = await parseJsonBody(request, Body, { maxBytes: Math.ceil((rule.maxBytes * 4) / 3) + 64 * 1024 }).catch((e: unknown) => {
    throw e instanceof Response && e.status === 413 ? jsonError(413, tooLarge, { field: "imageData" }) : e;
  });
  try {
    const { mimeType, data } = decodeDataUrl(body.imageData);
    const image = await checkImageUpload("logo", { data, fileName: body.fileName, declaredMimeType: mimeType });
    const branding = await saveBrandingImage(user.id, "logo", image);
    return Response.json({ success: true, url: branding.customLogoUrl, ...branding });
  } catch (e) {
    if (e instanceof UploadRejection) return jsonError(e.status, e.message, { field: "imageData" });
    throw e;
  }
}
