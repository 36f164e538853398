import type { LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { isMediaVariantWidth, MEDIA_VARIANT_WIDTHS } from "~/lib/media-variants";
import { jsonError } from "~/server/api.server";
import { requireUserId } from "~/server/auth.server";
import { serveMediaVariant } from "~/server/media-variants.server";
import { serveMedia } from "~/server/media-response.server";

const VariantWidth = z.coerce.number().int().refine(isMediaVariantWidth);

// GET/HEAD /api/media/:id: a media file, to its owner only (anyone else gets the same 404 as a missing id),
// with Range support so video and audio elements can seek. ?download=1 asks the browser to save it. The bytes are
// streamed from storage (the folder or the bucket, asked for just the range), never held whole in memory.
// ?w=<width> asks for an image scaled to one of the variant widths, as WebP (issue 36).
export async function loader({ request, params }: LoaderFunctionArgs) {
  const userId = await requireUserId(request);
  const w = new URL(request.url).searchParams.get("w");
  if (w === null) return serveMedia(request, userId, params.id ?? "");
  const width = VariantWidth.safeParse(w);
  if (!width.success || !isMediaVariantWidth(width.data)) {
    throw jsonError(400, `w is the image's width in pixels: one of ${MEDIA_VARIANT_WIDTHS.join(", ")}.`, { field: "w" });
  }
  return serveMediaVariant(request, userId, params.id ?? "", width.data);
}
