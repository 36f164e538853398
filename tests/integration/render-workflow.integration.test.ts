// The render workflow end to end: a 3-scene storyboard with real image and voiceover files becomes an MP4
// that ffprobe accepts, stored as the project's latest video.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { prisma } from "~/core/db.server";
import { findMediaForUser, mediaFilePath } from "~/core/storage.server";
import { sceneDurationInFrames, VIDEO_FPS } from "../../app/lib/timeline/timing";
import { renderVideoWorkflow } from "../../workflows/render";
import { renderProgressQuery, renderWorkflowId, type RenderWorkflowInput } from "../../workflows/shared/render";
import { seedRenderableProject } from "../fixtures/render-project";
import { storedCaptionCues } from "~/lib/caption-track";
import { measureLoudness } from "../../workflows/engine/loudness";
import { frameBrightness, meanVolumeDb, probeVideo } from "../fixtures/video-probe";
import type { Client } from "@temporalio/client";
import { startTestWorker } from "../support/temporal";

const taskQueue = process.env.TEMPORAL_TASK_QUEUE!;
let client: Client;
let stop: () => Promise<void>;

beforeAll(async () => {
  const testWorker = await startTestWorker({ stage: "render" });
  client = testWorker.client;
  stop = testWorker.stop;
});
afterAll(async () => {
  await stop?.();
  await prisma.$disconnect();
});

async function startRender(userId: string, projectId: string, size = { width: 640, height: 360 }) {
  const render = await prisma.renderedVideo.create({ data: { projectId, status: "processing", workflowId: renderWorkflowId(projectId) } });
  const input: RenderWorkflowInput = { renderId: render.id, userId, projectId, ...size, captions: true };
  const handle = await client.workflow.start(renderVideoWorkflow, {
    taskQueue,
    workflowId: renderWorkflowId(projectId),
    args: [input],
  });
  return { handle, renderId: render.id };
}

describe("render workflow", () => {
  it("renders 3 scenes with voiceovers and music into an H.264/AAC MP4 as long as the scenes", { timeout: 300_000 }, async () => {
    const user = await prisma.user.create({ data: { email: "render@example.com", name: "Renderer" } });
    const sceneSeconds = [1.5, 1.5, 1.5];
    const { projectId } = await seedRenderableProject({ userId: user.id, sceneSeconds, musicSeconds: 2, musicVolume: 40 });

    const { handle, renderId } = await startRender(user.id, projectId);
    const result = await handle.result();

    const row = await prisma.renderedVideo.findUniqueOrThrow({ where: { id: renderId } });
    expect(row).toMatchObject({ status: "completed", videoUrl: `/api/media/${result.mediaFileId}`, width: 640, height: 360, withMusic: true, volumeLevel: 40 });
    // stills, captions and audio only: the fast renderer, and the reason is on the row and in the run's memo
    expect(row).toMatchObject({ renderer: "fast", rendererReason: "the timeline holds only stills, clips, captions and audio, which the fast renderer draws" });
    const memo = (await handle.describe()).memo;
    expect(memo).toMatchObject({ renderer: "fast", rendererReason: row.rendererReason });
    const file = await findMediaForUser(user.id, result.mediaFileId);
    expect(file).toMatchObject({ kind: "video", mimeType: "video/mp4", projectId });
    const mp4 = mediaFilePath(file!);

    const facts = await probeVideo(mp4);
    const expectedFrames = sceneSeconds.reduce((sum, s) => sum + sceneDurationInFrames(s), 0);
    expect(Math.abs(facts.video.frames - expectedFrames)).toBeLessThanOrEqual(1);
    expect(Math.abs(facts.video.durationSeconds - expectedFrames / VIDEO_FPS)).toBeLessThanOrEqual(1 / VIDEO_FPS);
    expect(facts.video).toMatchObject({ codec: "h264", width: 640, height: 360, pixFmt: "yuv420p" });
    expect(facts.audio?.codec).toBe("aac");

    // the scene images are on screen (bright gradients), not a black or blank page
    expect(await frameBrightness(mp4, 0.5)).toBeGreaterThan(100);

    // the voiceovers are heard, and the music plays in the pause after each voiceover
    expect(await meanVolumeDb(mp4)).toBeGreaterThan(-35);
    const firstPad = 1.5 + 0.1;
    expect(await meanVolumeDb(mp4, firstPad, 0.3)).toBeGreaterThan(-45);

    // the save step brought the mix to the platform's loudness (decision 190) and stored what the file measures
    const measured = await measureLoudness(mp4);
    expect(Math.abs(measured.integratedLufs - -14)).toBeLessThanOrEqual(1);
    expect(measured.truePeakDbtp).toBeLessThanOrEqual(-1);
    expect(row.loudnessLufs).toBeCloseTo(measured.integratedLufs, 0);
    expect(row.truePeakDbtp).toBeCloseTo(measured.truePeakDbtp, 0);
    // and the caption track of the three voiceovers, in order
    const cues = storedCaptionCues(row.captionCues);
    const cells = await prisma.storyboardCell.findMany({ where: { storyboard: { projectId } }, orderBy: { cellIndex: "asc" } });
    expect(cues.map((c) => c.text.replace(/\n/g, " ")).join(" ")).toBe(cells.map((c) => c.voiceoverText).join(" "));
    expect(cues.at(-1)!.endMs).toBeLessThanOrEqual(Math.round((expectedFrames / VIDEO_FPS) * 1000));

    const progress = await handle.query(renderProgressQuery);
    expect(progress).toMatchObject({ status: "completed", progress: 100, totalScenes: 3, completedScenes: 3 });
    expect(fs.existsSync(path.join(os.tmpdir(), `reelsmith-render-${renderId}`))).toBe(false);
  });

  it("refuses a storyboard with a scene that has no voiceover, and records why", { timeout: 120_000 }, async () => {
    const user = await prisma.user.create({ data: { email: "incomplete@example.com" } });
    const { projectId } = await seedRenderableProject({ userId: user.id, sceneSeconds: [1, 1] });
    await prisma.storyboardCell.updateMany({ where: { storyboard: { projectId }, cellIndex: 1 }, data: { audioUrl: null, audioFileId: null } });

    const { handle, renderId } = await startRender(user.id, projectId);
    await expect(handle.result()).rejects.toThrow();
    const row = await prisma.renderedVideo.findUniqueOrThrow({ where: { id: renderId } });
    expect(row.status).toBe("error");
    expect(row.error).toBe("Scene 2's voiceover is missing. Generate it again on the Storyboard page.");
  });

  it("names the first wrong scene when several are wrong, though the scenes are planned at once", { timeout: 120_000 }, async () => {
    const user = await prisma.user.create({ data: { email: "two-wrong@example.com" } });
    const { projectId } = await seedRenderableProject({ userId: user.id, sceneSeconds: [1, 1, 1, 1] });
    const cells = await prisma.storyboardCell.findMany({ where: { storyboard: { projectId } }, orderBy: { cellIndex: "asc" } });
    // scene 2's voiceover is there but is not sound (found out only once ffprobe has run); scene 4's image is gone
    // (found out at once, so it fails first)
    const voiceover = (await findMediaForUser(user.id, cells[1]!.audioFileId!))!;
    fs.writeFileSync(mediaFilePath(voiceover), "this is not a WAV file");
    await prisma.storyboardCell.update({ where: { id: cells[3]!.id }, data: { imageUrl: null, imageFileId: null } });

    const { handle, renderId } = await startRender(user.id, projectId);
    await expect(handle.result()).rejects.toThrow();
    const row = await prisma.renderedVideo.findUniqueOrThrow({ where: { id: renderId } });
    expect(row.error).toBe("Scene 2's voiceover is not a playable audio file. Generate it again on the Storyboard page.");
  });
});
