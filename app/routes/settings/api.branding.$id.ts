import type { LoaderFunctionArgs } from "@remix-run/node";
import { readMedia } from "~/core/storage.server";
import { findBrandingFile } from "~/server/uploads.server";

// GET /api/branding/<id>: the owner's logo or favicon, public (the landing page shows the logo). Only files
// of kind "branding" are served here; every other media file stays behind the owner-only /api/media route.
export async function loader({ params }: LoaderFunctionArgs) {
  const file = params.id ? await findBrandingFile(params.id) : null;
  if (!file) return new Response("Not Found", { status: 404, headers: { "Content-Type": "text/plain" } });
  const data = await readMedia(file);
  return new Response(new Uint8Array(data), {
    headers: {
      "Content-Type": file.mimeType,
      "Content-Length": String(data.length),
      // A new upload gets a new id, so a file never changes under its URL.
      "Cache-Control": "public, max-age=86400",
      "X-Content-Type-Options": "nosniff",
      // SVGs were cleaned on upload; if one is opened directly it still may not run or load anything.
      "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; img-src data:; sandbox",
    },
  });
}
