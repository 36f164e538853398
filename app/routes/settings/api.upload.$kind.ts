import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { MULTIPART_OVERHEAD, jsonError, methodNotAllowed, readMultipartCapped, thrownResponse } from "~/server/api.server";
import { requireUser } from "~/server/auth.server";
import { isOwner } from "~/core/permissions.server";
import { checkImageUpload, saveBrandingImage, saveWatermarkImage, UPLOAD_RULES, UploadRejection } from "~/server/uploads.server";

const Kind = z.enum(["watermark", "logo", "favicon"]);

// POST /api/upload/watermark|logo|favicon: multipart with the file in the field of the same name.
export async function action({ request, params }: ActionFunctionArgs) {
  const kind = Kind.safeParse(params.kind);
  if (!kind.success) return jsonError(404, "Uploads go to /api/upload/watermark, /api/upload/logo or /api/upload/favicon.");
  if (request.method !== "POST") return methodNotAllowed(["POST"], "Use POST with a multipart form to upload.");
  const field = kind.data;
  const user = await requireUser(request);
  if (field !== "watermark" && !isOwner(user)) {
    return jsonError(403, "Only the owner account can change the logo and favicon.", { field });
  }

  const rule = UPLOAD_RULES[field];
  const tooLarge = `File too large: the ${rule.label} must be ${rule.maxBytes / (1024 * 1024)} MB or smaller.`;
  if (Number(request.headers.get("Content-Length") ?? 0) > rule.maxBytes + MULTIPART_OVERHEAD) return jsonError(413, tooLarge, { field });
  if (!request.headers.get("Content-Type")?.startsWith("multipart/form-data")) {
    return jsonError(400, `Send the image as multipart/form-data in the field "${field}".`, { field });
  }

  let form: FormData;
  try {
    form = await readMultipartCapped(request, { maxFileBytes: rule.maxBytes, tooLarge, field });
  } catch (e) {
    const answer = thrownResponse(e);
    if (answer) return answer;
    throw e;
  }
  const file = form.get(field);
  if (!(file instanceof File)) return jsonError(400, `Choose an image to upload (form field "${field}").`, { field });

  try {
    const image = await checkImageUpload(field, { data: Buffer.from(await file.arrayBuffer()), fileName: file.name, declaredMimeType: file.type });
    if (field === "watermark") {
      const url = await saveWatermarkImage(user.id, image);
      return Response.json({ success: true, url, watermarkImageUrl: url });
    }
    const branding = await saveBrandingImage(user.id, field, image);
    const url = field === "logo" ? branding.customLogoUrl : branding.customFaviconUrl;
    return Response.json({ success: true, url, ...branding });
  } catch (e) {
    if (e instanceof UploadRejection) return jsonError(e.status, e.message, { field });
    throw e;
  }
}
