import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import {
  CAPTION_POSITIONS,
  CAPTION_PRESETS,
  CAPTION_SIZES,
} from "~/lib/caption-style";
import { methodNotAllowed, parseJsonBody } from "~/server/api.server";
import { requireUserId } from "~/server/auth.server";
import { requireCurrentProject } from "~/core/projects.server";
import { getCaptionStyle, setCaptionStyle } from "~/server/storyboard.server";

const BodySchema = z.object({
  preset: z.enum(CAPTION_PRESETS, {
    message: `preset must be one of: ${CAPTION_PRESETS.join(", ")}`,
  }),
  position: z.enum(CAPTION_POSITIONS, {
    message: `position must be one of: ${CAPTION_POSITIONS.join(", ")}`,
  }),
  size: z.enum(CAPTION_SIZES, {
    message: `size must be one of: ${CAPTION_SIZES.join(", ")}`,
  }),
});


// GET /api/caption-style: how the current project's captions look (its choice, or its format's default).
export async function loader({ request }: LoaderFunctionArgs) {
  const userId = await requireUserId(request);
  return Response.json(getCaptionStyle(await requireCurrentProject(userId, "preset")));
}

// PUT /api/caption-style {preset, position, size}: remember the style for the preview and the next render.
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "PUT") return methodNotAllowed(["GET", "HEAD", "PUT"], "Use PUT to change the caption style.");
  const userId = await requireUserId(request);
  const style = await parseJsonBody(request, BodySchema);
  return Response.json(
    await setCaptionStyle(await requireCurrentProject(userId, "preset"), style)
  );
}
