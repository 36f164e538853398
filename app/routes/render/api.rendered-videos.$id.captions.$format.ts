import type { LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { requireUserId } from "~/server/auth.server";
import { captionTrackFile } from "~/server/render.server";

const ParamsSchema = z.object({ id: z.string().min(1).max(100), format: z.enum(["srt", "vtt"]) });

// GET /api/rendered-videos/:id/captions/:format (srt or vtt): the render's caption track, built from its word
// timings, to the render's owner only (anyone else, or a render without captions, gets 404). Downloaded as a file.
export async function loader({ request, params }: LoaderFunctionArgs) {
  const userId = await requireUserId(request);
  const parsed = ParamsSchema.safeParse(params);
  if (!parsed.success) return Response.json({ message: "Captions come as srt or vtt: /api/rendered-videos/{id}/captions/srt" }, { status: 404 });
  const file = await captionTrackFile(userId, parsed.data.id, parsed.data.format);
  return new Response(file.text, {
    headers: {
      "Content-Type": `${file.mimeType}; charset=utf-8`,
      "Content-Disposition": `attachment; filename="${file.fileName}"`,
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
