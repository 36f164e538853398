// The publish stage's thumbnail and metadata calls as the web sees them: check the request, start the
// workflow (identical requests join the run in flight) and answer with its result, as the spec's calls do.
import { createHash } from "node:crypto";
import { WorkflowFailedError } from "@temporalio/client";
import { THUMBNAIL_FONTS, thumbnailFontFor, thumbnailFontSizeFor, type GenerateThumbnailRequest } from "~/lib/thumbnail";
import { thumbnailWorkflow, uploadMetadataWorkflow } from "../../workflows/thumbnail";
import { innermostMessage } from "../../workflows/shared/errors";
import {
  thumbnailWorkflowId,
  uploadMetadataWorkflowId,
  type ThumbnailWorkflowResult,
  type UploadMetadataWorkflowResult,
} from "../../workflows/shared/thumbnail";
import { jsonError } from "./api.server";
import { prisma } from "./db.server";
import { getUserSettings } from "./settings.server";
import { getTemporalClient, startWorkflow, WorkflowAlreadyRunningError, type WorkflowMemo } from "./temporal.server";
import { ownedImage, thumbnailProject } from "./thumbnail.server";

const requestKey = (value: unknown) => createHash("sha256").update(JSON.stringify(value)).digest("hex").slice(0, 20);

/** Starts the run (or joins the open one with this id) and waits for its result; a failure is a 502 with its reason. */
async function runAndWait<R>(start: () => Promise<unknown>, workflowId: string, fallback: string): Promise<R> {
  try {
    await start();
  } catch (e) {
    if (!(e instanceof WorkflowAlreadyRunningError)) throw e;
  }
  try {
    return (await (await getTemporalClient()).workflow.getHandle(workflowId).result()) as R;
  } catch (e) {
    if (e instanceof WorkflowFailedError) {
      const message = innermostMessage(e, fallback);
      throw jsonError(502, message, { success: false, error: message });
    }
    throw e;
  }
}

/** The font a request names (fontValue, else fontFamily), the creator's preferred one when it names none. */
function requestedFont(body: GenerateThumbnailRequest, preferred: string | null) {
  const named = body.fontValue?.trim() || body.fontFamily?.trim();
  if (!named) return thumbnailFontFor(preferred);
  const font = THUMBNAIL_FONTS.find((f) => f.value === named.toLowerCase() || f.family.toLowerCase() === named.toLowerCase());
  if (!font) {
    const field = body.fontValue?.trim() ? "fontValue" : "fontFamily";
    throw jsonError(400, `${field}: choose one of ${THUMBNAIL_FONTS.map((f) => f.family).join(", ")}`, { field, success: false });
  }
  return font;
}

/** POST /api/generate-thumbnail: renders a thumbnail for one of the user's projects and answers with its URL. */
export async function generateThumbnail(userId: string, body: GenerateThumbnailRequest): Promise<ThumbnailWorkflowResult> {
  const project = await thumbnailProject(userId, body.projectId);
  if (!project) throw jsonError(404, "No project yet. Create a video first.", { success: false });
  await ownedImage(userId, body.imageUrl, "imageUrl");
  const settings = await getUserSettings(userId);
  const font = requestedFont(body, settings.preferredThumbnailFont);
  const fontSize = body.fontSize ?? thumbnailFontSizeFor(settings.preferredThumbnailFontSize);
  let cellIndex: number | null = null;
  if (typeof body.cellIndex === "number") {
    const cell = await prisma.storyboardCell.findFirst({ where: { cellIndex: body.cellIndex, storyboard: { projectId: project.id } }, select: { id: true } });
    cellIndex = cell ? body.cellIndex : null;
  }
  const input = { userId, projectId: project.id, imageUrl: body.imageUrl, cellIndex, title: body.title, font: font.value, fontSize };
  const workflowId = thumbnailWorkflowId(project.id, requestKey(input));
  const memo: WorkflowMemo = { userId, projectId: project.id, projectTitle: project.title };
  return runAndWait<ThumbnailWorkflowResult>(
    () => startWorkflow(thumbnailWorkflow, { workflowId, args: [input], memo }),
    workflowId,
    "The thumbnail could not be generated",
  );
}

/** POST /api/generate-metadata: a description and tags for the upload, from the user's text provider. */
export async function generateUploadMetadata(userId: string, body: { title: string; script: string }): Promise<UploadMetadataWorkflowResult> {
  const input = { userId, title: body.title, script: body.script };
  const workflowId = uploadMetadataWorkflowId(userId, requestKey(input));
  return runAndWait<UploadMetadataWorkflowResult>(
    () => startWorkflow(uploadMetadataWorkflow, { workflowId, args: [input], memo: { userId, projectTitle: body.title } }),
    workflowId,
    "The description and tags could not be written",
  );
}
