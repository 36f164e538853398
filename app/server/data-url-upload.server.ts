// The older pages' JSON image uploads ({ imageData: a base64 data URL, fileName }): the body bounded by the
// kind's size (a declared or actual body past it is the same 'File too large'), decoded, and checked like any
// upload of that kind. Used by /api/upload-logo and /api/upload-watermark.
import { z } from "zod";
import { parseJsonBody } from "./api.server";
import { checkImageUpload, decodeDataUrl, decodedSizeOf, UPLOAD_RULES, UploadRejection, type CheckedImage } from "./uploads.server";
import { isRefusal, refusal } from "~/core/refusal.server";

const Body = z.object({
  imageData: z.string().min(1, "Choose an image to upload.").startsWith("data:", "imageData must be a data URL."),
  fileName: z.string().max(255).optional(),
});

/** Room for the JSON around the data URL. */
const ENVELOPE_BYTES = 64 * 1024;

/** The checked image of the request's body; throws a refusal (413, 415, 400...) naming `imageData`. */
export async function readDataUrlImage(request: Request, kind: "logo" | "watermark"): Promise<CheckedImage> {
  const rule = UPLOAD_RULES[kind];
  const tooLarge = () => refusal(413, `File too large: the ${rule.label} must be ${rule.maxBytes / (1024 * 1024)} MB or smaller.`, { field: "imageData" });
  if (decodedSizeOf(Number(request.headers.get("Content-Length") ?? 0)) > rule.maxBytes + ENVELOPE_BYTES) throw tooLarge();
  const body = await parseJsonBody(request, Body, { maxBytes: Math.ceil((rule.maxBytes * 4) / 3) + ENVELOPE_BYTES }).catch((e: unknown) => {
    throw isRefusal(e) && e.status === 413 ? tooLarge() : e;
  });
  try {
    const { mimeType, data } = decodeDataUrl(body.imageData);
    return await checkImageUpload(kind, { data, fileName: body.fileName, declaredMimeType: mimeType });
  } catch (e) {
    if (e instanceof UploadRejection) throw refusal(e.status, e.message, { field: "imageData" });
    throw e;
  }
}
