// AI video clips per scene (issue 50, decisions 223-224): the budget checked before any call, then one paid
// generation per scene through the clip provider. The provider keeps the job's name in the ProviderJob ledger
// before it polls (decision 200), so a retried attempt or a new worker after a SIGKILL polls the same job; the
// spend is recorded once per job; the clip is converted like a creator's upload and shown on the scene.
import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { ApplicationFailure } from "@temporalio/activity";
import { Prisma } from "~/generated/prisma/client";
import { resolutionValue, videoSizeFor } from "~/lib/video-format";
import { clipProviderFor, ClipKeyMissing } from "~/providers/video/index.server";
import { PaidJobFailed } from "~/providers/video/paid-job";
import { clipPrice, clipSecondsFor, estimateClips } from "~/lib/clip-prices";
import { RUNWAY_TASK_JOB } from "~/providers/video/runway.server";
import { VEO_OPERATION_JOB } from "~/providers/video/veo.server";
import { checkClipBudget, ClipBudgetRefusal, getRunwayKey, markClipGeneration, recordClipSpend, sceneSeconds } from "~/core/clip-budget.server";
import { prisma } from "~/core/db.server";
import { SceneMediaRejection, prepareSceneClip, storePreparedClip } from "~/core/scene-media-files.server";
import { getProviderKeys } from "~/core/settings.server";
import { mediaUrl, readMedia } from "~/core/storage.server";
import { AI_CLIP_REJECTED, CLIP_BUDGET_REFUSED, type AnimateScenesInput, type SceneAiClipInput, type SceneAiClipResult } from "../shared/ai-clips";
import { withHeartbeat } from "../shared/heartbeat";
import { SCENE_MISSING } from "../shared/scene-media";
import { activityProviderCall, asActivityFailure } from "./providers";

const refused = (e: ClipBudgetRefusal) => ApplicationFailure.create({ message: e.message, type: CLIP_BUDGET_REFUSED, nonRetryable: true, details: [e.figures] });

async function sceneOf(input: { userId: string; projectId: string; cellIndex: number }) {
  const project = await prisma.project.findFirst({ where: { id: input.projectId, userId: input.userId } });
  const cell = project ? await prisma.storyboardCell.findFirst({ where: { cellIndex: input.cellIndex, storyboard: { projectId: project.id } } }) : null;
  if (!project || !cell) throw ApplicationFailure.create({ message: `Scene ${input.cellIndex + 1} does not exist`, type: SCENE_MISSING, nonRetryable: true });
  return { project, cell };
}

/** What to ask for: the scene's picture prompt, and what the narrator says over it, so the motion fits the words. */
const clipPrompt = (cell: { imagePrompt: string; voiceoverText: string }) =>
  `${cell.imagePrompt.trim()}\nThe narrator says over this shot: "${cell.voiceoverText.trim().slice(0, 600)}". Natural, steady camera motion; no text on screen.`;

export function createAiClipActivities() {
  return {
    /** The whole request's estimate against the budget and the cap: refused with the figures before any call. */
    async checkAiClipBudget(input: AnimateScenesInput): Promise<{ totalCents: number }> {
      const price = clipPrice(input.provider);
      const cells = await prisma.storyboardCell.findMany({ where: { cellIndex: { in: input.cellIndexes }, storyboard: { projectId: input.projectId, project: { userId: input.userId } } } });
      const { totalCents } = estimateClips(
        price,
        cells.map((c) => ({ cellIndex: c.cellIndex, sceneSeconds: sceneSeconds(c) })),
      );
      try {
        await checkClipBudget(input.userId, input.projectId, totalCents);
      } catch (e) {
        if (e instanceof ClipBudgetRefusal) throw refused(e);
        throw e;
      }
      return { totalCents };
    },

    async generateSceneAiClip(input: SceneAiClipInput): Promise<SceneAiClipResult> {
      const { project, cell } = await sceneOf(input);
      const price = clipPrice(input.provider);
      const seconds = clipSecondsFor(price, sceneSeconds(cell));
      const costCents = seconds * price.centsPerSecond;
      const call = activityProviderCall();
      // a job this activity already started (an earlier attempt, a killed worker) is polled, not paid for again:
      // its cost is already counted, so only a new job is checked against the budget
      const resumed = await call?.jobs?.recall(input.provider === "veo" ? VEO_OPERATION_JOB : RUNWAY_TASK_JOB);
      if (!resumed) {
        try {
          await checkClipBudget(input.userId, input.projectId, costCents);
        } catch (e) {
          if (e instanceof ClipBudgetRefusal) throw refused(e);
          throw e;
        }
      }
      const usePicture = input.source === "picture";
      const imageFile = usePicture && cell.imageFileId ? await prisma.mediaFile.findFirst({ where: { id: cell.imageFileId, userId: input.userId } }) : null;
      if (usePicture && !imageFile) {
        throw ApplicationFailure.create({ message: `Scene ${input.cellIndex + 1} has no picture to animate yet: make its picture first, or animate it from its words.`, type: AI_CLIP_REJECTED, nonRetryable: true });
      }
      const keys = await getProviderKeys(input.userId);
      let dir: string | undefined;
      try {
        const provider = clipProviderFor(input.provider, { geminiApiKey: keys.geminiApiKey, runwayApiKey: await getRunwayKey(input.userId) }, { call, pollIntervalMs: input.pollIntervalMs });
        const image = imageFile ? { data: await readMedia(imageFile), mimeType: imageFile.mimeType } : undefined;
        const aspectRatio = project.resolution === "shorts" ? "9:16" : "16:9";
        const result = await provider.generateClip({ prompt: clipPrompt(cell), image, aspectRatio, seconds }, async (id) => {
          await recordClipSpend({ userId: input.userId, projectId: project.id, cellIndex: input.cellIndex, provider: input.provider, model: price.model, jobId: id, seconds, costCents, source: input.source });
        });
        // converted as a creator's clip is: H.264 at the format's size, no audio (the voiceover plays), a poster frame
        dir = await fsp.mkdtemp(path.join(os.tmpdir(), "reelsmith-ai-clip-"));
        const raw = path.join(dir, "generated.mp4");
        await fsp.writeFile(raw, result.video);
        // the conversion and the upload tell Temporal the worker is alive: on a busy machine they outlasted the
        // 30 s heartbeat timeout, and a second attempt converted the same clip beside the first (CI, stop 66)
        const prepared = await withHeartbeat(() => prepareSceneClip(raw, videoSizeFor(resolutionValue(project.resolution), 1080)));
        try {
          const stored = await withHeartbeat(() => storePreparedClip(input.userId, project, prepared));
          await prisma.storyboardCell.update({
            where: { id: cell.id },
            data: {
              imageUrl: mediaUrl(stored.poster),
              imageFileId: stored.poster.id,
              clipUrl: mediaUrl(stored.file),
              clipFileId: stored.file.id,
              clipDuration: stored.durationSeconds,
              mediaCredit: Prisma.DbNull,
              imageMadeBy: `${provider.name} (${price.label})`,
            },
          });
          await markClipGeneration(result.jobId, "succeeded");
          return { cellIndex: input.cellIndex, clipUrl: mediaUrl(stored.file), jobId: result.jobId, seconds, costCents };
        } finally {
          await fsp.rm(prepared.dir, { recursive: true, force: true });
        }
      } catch (e) {
        // the service ended the job without a video: not charged, so it no longer counts against the budget
        // (decision 270); any other failure (a lost answer, a download cut) leaves the job counted
        if (e instanceof PaidJobFailed) await markClipGeneration(e.jobId, "failed").catch(() => {});
        if (e instanceof ClipKeyMissing) throw ApplicationFailure.create({ message: e.message, type: AI_CLIP_REJECTED, nonRetryable: true });
        if (e instanceof SceneMediaRejection) throw ApplicationFailure.create({ message: `The generated clip could not be used: ${e.message}`, type: AI_CLIP_REJECTED, nonRetryable: true });
        throw asActivityFailure(e);
      } finally {
        if (dir) await fsp.rm(dir, { recursive: true, force: true });
      }
    },
  };
}

export type AiClipActivities = ReturnType<typeof createAiClipActivities>;
