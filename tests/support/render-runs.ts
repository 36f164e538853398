// A render run of a seeded project started as the web starts one (its RenderedVideo row, then the render workflow by
// its id), what its history says of its chunks, and the stored video it made: written once for the render tests that
// start worker processes of their own (issue 55, decision 269).
import type { Client, WorkflowHandle } from "@temporalio/client";
import { prisma } from "~/core/db.server";
import { findMediaForUser, withLocalMediaCopy } from "~/core/storage.server";
import { sceneDurationInFrames } from "../../app/lib/timeline/timing";
import { renderVideoWorkflow } from "../../workflows/render";
import { renderWorkflowId } from "../../workflows/shared/render";
import { seedRenderableProject } from "../fixtures/render-project";
import { probeVideo } from "../fixtures/video-probe";

/** Six scenes of 5 s (4.7 s of voiceover and the pause): 30 s, long enough to be cut into chunks. */
export const THIRTY_SECONDS_OF_SCENES = [4.7, 4.7, 4.7, 4.7, 4.7, 4.7];
/** The frames of a video of those scenes. */
export const framesOf = (sceneSeconds: number[]) => sceneSeconds.reduce((sum, s) => sum + sceneDurationInFrames(s), 0);

/**
 * A new creator (`label` names their e-mail), a project of `sceneSeconds` with 12 s of music, and its render on
 * `taskQueue` at `size`, with captions; the workflow is started, not awaited.
 */
export async function startSeededRender(client: Client, options: { taskQueue: string; label: string; size: { width: number; height: number }; sceneSeconds?: number[] }) {
  const user = await prisma.user.create({ data: { email: `${options.label}-${Date.now()}@example.com` } });
  const { projectId } = await seedRenderableProject({ userId: user.id, sceneSeconds: options.sceneSeconds ?? THIRTY_SECONDS_OF_SCENES, musicSeconds: 12 });
  const render = await prisma.renderedVideo.create({ data: { projectId, status: "processing" } });
  const handle = await client.workflow.start(renderVideoWorkflow, {
    taskQueue: options.taskQueue,
    workflowId: renderWorkflowId(projectId),
    args: [{ renderId: render.id, userId: user.id, projectId, ...options.size, captions: true }],
  });
  return { user, projectId, render, handle };
}

export type ChunkProgress = { chunk: number; frames: number; attempt: number; /** when the workflow heard it, in ms */ at: number };

/** The chunks' progress signals (renderChunkProgress), in the order the render's workflow heard them. */
export async function chunkProgressSignals(handle: WorkflowHandle): Promise<ChunkProgress[]> {
  return ((await handle.fetchHistory()).events ?? []).flatMap((e) => {
    const s = e.workflowExecutionSignaledEventAttributes;
    if (s?.signalName !== "renderChunkProgress") return [];
    const at = Number(e.eventTime!.seconds) * 1000 + Math.floor((e.eventTime!.nanos ?? 0) / 1e6);
    return [{ ...(JSON.parse(Buffer.from(s.input!.payloads![0]!.data!).toString()) as Omit<ChunkProgress, "at">), at }];
  });
}

/** The facts of a stored video (its picture and sound), read as any process reads it: the file, or a copy out of the bucket. */
export async function storedVideoFacts(userId: string, mediaFileId: string) {
  const file = await findMediaForUser(userId, mediaFileId);
  if (!file) throw new Error(`no stored video ${mediaFileId} of user ${userId}`);
  return withLocalMediaCopy(file, (localPath) => probeVideo(localPath));
}
