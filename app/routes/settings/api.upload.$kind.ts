import {
  MaxPartSizeExceededError,
  unstable_createMemoryUploadHandler,
  unstable_parseMultipartFormData,
  type ActionFunctionArgs,
} from "@remix-run/node";
import { z } from "zod";
import { isBodyLimitError, jsonError, methodNotAllowed, withBodyLimit } from "~/server/api.server";
import { requireUser } from "~/server/auth.server";
import { isOwner } from "~/server/permissions.server";
import { checkImageUpload, saveBrandingImage, saveWatermarkImage, UPLOAD_RULES, UploadRejection } from "~/server/uploads.server";

const Kind = z.enum(["watermark", "logo", "favicon"]);
const MULTIPART_OVERHEAD = 64 * 1024;
/** A form with the file and a few small fields; more parts than this is not an upload from our pages. */
export const MAX_MULTIPART_PARTS = 8;

class TooManyPartsError extends Error {}

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
    const memory = unstable_createMemoryUploadHandler({ maxPartSize: rule.maxBytes });
    let parts = 0;
    // The whole body is capped as a stream (a chunked body has no Content-Length), and so is the part count.
    form = await unstable_parseMultipartFormData(withBodyLimit(request, rule.maxBytes + MULTIPART_OVERHEAD), (part) => {
      if (++parts > MAX_MULTIPART_PARTS) throw new TooManyPartsError();
      return memory(part);
    });
  } catch (e) {
    if (e instanceof MaxPartSizeExceededError || isBodyLimitError(e)) return jsonError(413, tooLarge, { field });
    if (e instanceof TooManyPartsError) return jsonError(413, `The upload has too many form fields: send at most ${MAX_MULTIPART_PARTS}.`, { field });
    return jsonError(400, `The upload could not be read as a multipart form: ${(e as Error).message}`, { field });
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
