// The render stage's start, written once (issue 46): the quality a render may have under the user's plan (one rule
// for every door: above the plan is refused, never lowered in silence) and the render row with the workflow's
// input. The render page (app/server/render.server.ts), /api/v1, MCP and batches (through core/video-run.server.ts)
// and the make-video workflow's render stage (workflows/activities/make-video.ts) all use it.
import type { Project } from "~/generated/prisma/client";
import { captionStyleFor } from "~/lib/caption-style";
import { defaultRenderHeight, RENDER_HEIGHT_LABELS, resolutionValue, videoSizeFor, type RenderHeight } from "~/lib/video-format";
import { renderWorkflowId, type RenderWorkflowInput } from "../../workflows/shared/render";
import { prisma } from "./db.server";
import { maxRenderHeight } from "./permissions.server";
import { refusal } from "./refusal.server";

/** The words of the refusal of a quality above the plan, the same at every door. */
export function qualityAbovePlanMessage(quality: RenderHeight): string {
  return `${RENDER_HEIGHT_LABELS[quality]} is a Premium feature; the free plan renders up to 720p. Upgrade on the Subscription page (/subscription).`;
}

/**
 * The height the user's render gets: `quality` when the plan allows it, else a refusal (402, field "quality",
 * limit "quality"); without one, the plan's best HD (defaultRenderHeight).
 */
export async function renderHeightFor(userId: string, quality?: RenderHeight | null): Promise<RenderHeight> {
  const allowed = await maxRenderHeight(userId);
  if (quality && quality > allowed) throw refusal(402, qualityAbovePlanMessage(quality), { field: "quality", limit: "quality" });
  return quality ?? defaultRenderHeight(allowed);
}

/**
 * A render of `project` at `quality` (checked by renderHeightFor): its row, marked processing under the render
 * workflow's id, and the workflow's input with the project's caption style. `size` overrides the frame size (tests).
 */
export async function startRenderRow(
  userId: string,
  project: Project,
  quality?: RenderHeight | null,
  size?: { width: number; height: number },
): Promise<RenderWorkflowInput> {
  const settings = await renderSettingsFor(userId, project, quality, size);
  const render = await prisma.renderedVideo.create({ data: { projectId: project.id, status: "processing", workflowId: renderWorkflowId(project.id) } });
  return { renderId: render.id, ...settings };
}

/**
 * What startRenderRow's render would be (frame, captions and their style), without its row: the make-video run draws
 * a render's first chunks before the render starts (decision 261).
 */
export async function renderSettingsFor(
  userId: string,
  project: Project,
  quality?: RenderHeight | null,
  size?: { width: number; height: number },
): Promise<Omit<RenderWorkflowInput, "renderId">> {
  const format = resolutionValue(project.resolution);
  const height = await renderHeightFor(userId, quality);
  const frame = size ?? videoSizeFor(format, height);
  const captionStyle = captionStyleFor(format, project);
  return { userId, projectId: project.id, ...frame, captions: captionStyle.preset !== "none", captionStyle };
}
