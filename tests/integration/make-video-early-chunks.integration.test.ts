// Issue 53: "a render chunk starts as soon as its scenes' pictures and voiceovers exist" (decision 261). A make-video
// run on the real worker with the offline providers, chunks kept for reuse of 3 s (RENDER_REUSE_CHUNK_SECONDS), the
// voiceovers made a second apart: the render's first chunk is drawn while the later scenes' voiceovers are still
// being made (drawn by a look that found only some scenes ready), and the render, once every scene is ready, takes
// it as drawn and draws only the rest. The video is still whole: as long as its scenes, with sound. The first chunk's
// draw is held (after it stored the chunk) until the render has started (decision 292): the render starts with that
// chunk still being drawn, waits for the run's word that it is over, and only then asks for it, taking it as kept.
// Issue 53's "an edited scene during a pipelined run re-renders only its chunk (the others' files unchanged)"
// (decision 267): while a run draws its early chunks, the creator uploads an own picture for scene 1 through
// /api/scene-media, and once the render has planned its scenes, one for the last scene. Scene 1's chunk is drawn
// again; the run renders again after its render, drawing only the last scene's chunk; every other chunk drawn before
// the edits is used as it was (the same stored files, byte for byte, the same frames); the finished MP4 shows both.
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { promisify } from "node:util";
import type { Client } from "@temporalio/client";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { prisma } from "~/core/db.server";
import { findMediaForUser, withLocalMediaCopy } from "~/core/storage.server";
import { action as sceneMedia } from "~/routes/storyboard/api.scene-media";
import { MakeVideoOptionsSchema, startMakeVideo } from "~/server/make-video.server";
import { runProgressOf } from "~/server/make-video-progress.server";
import { sceneBoundaries } from "../../app/lib/timeline/timing";
import { makeVideoProgressQuery, makeVideoWorkflowId, type MakeVideoTuning } from "../../workflows/shared/make-video";
import { createStoryboardActivities } from "../../workflows/activities/storyboard";
import { drawEarlyChunk as realDrawEarlyChunk } from "../../workflows/activities/render-early-chunks";
import { renderWorkflowId } from "../../workflows/shared/render";
import { generateAllWorkflowId } from "../../workflows/shared/scene-media";
import { probeVideo } from "../fixtures/video-probe";
import { holdHeartbeating } from "../support/activity-hold";
import { createTestUser, sessionCookieFor } from "../support/auth";
import { callRoute } from "../support/routes";
import { startTestWorker } from "../support/temporal";

const run = promisify(execFile);

vi.hoisted(() => {
  process.env.RENDER_REUSE_CHUNK_SECONDS = "3";
});

const TUNING: MakeVideoTuning = {
  renderSize: { width: 180, height: 320 },
  generateAllPauses: { imageBatchMs: 0, voiceoverMs: 1000 },
  musicPollIntervalMs: 200,
};

let stopWorker: () => Promise<void>;
let temporal: Client;

// Each test's Generate All speaks its last scene only once the test's event is in, so that event comes while the
// scene media are still being made however slow the machine: the first test's first chunk drawn early (CI, stop 70:
// at 1 s between voiceovers, the loop's first look came only after Generate All had finished), the edit test's
// creator's first edit (CI once drew the two early chunks only after the whole of Generate All had finished). It
// heartbeats while it waits, as a voice waiting on its provider does.
const EARLY_TITLE = "Tides and the Moon";
const EDITED_TITLE = "Why Bees Dance";
let firstEditIn = false;
beforeAll(async () => {
  const real = createStoryboardActivities();
  const generateSceneVoiceover: typeof real.generateSceneVoiceover = async (input) => {
    const project = await prisma.project.findUnique({ where: { id: input.projectId }, select: { title: true } });
    const scenes = await prisma.storyboardCell.count({ where: { storyboard: { projectId: input.projectId } } });
    if (input.cellIndex === scenes - 1) {
      if (project?.title === EDITED_TITLE) await holdHeartbeating(240_000, () => firstEditIn);
      if (project?.title === EARLY_TITLE) {
        await holdHeartbeating(240_000, async () => (await prisma.renderChunkPart.count({ where: { projectId: input.projectId } })) > 0);
      }
    }
    return real.generateSceneVoiceover(input);
  };
  // the first test's first chunk, once drawn, is answered only when the render runs: it is still "being drawn" then
  const drawEarlyChunk: typeof realDrawEarlyChunk = async (input) => {
    const drawn = await realDrawEarlyChunk(input);
    const project = await prisma.project.findUnique({ where: { id: input.projectId }, select: { title: true } });
    if (project?.title === EARLY_TITLE && input.chunk.fromScene === 0) {
      await holdHeartbeating(240_000, async () => {
        const render = await temporal.workflow
          .getHandle(renderWorkflowId(input.projectId))
          .describe()
          .catch(() => null);
        return render?.status.name === "RUNNING";
      });
    }
    return drawn;
  };
  const worker = await startTestWorker({ activities: { generateSceneVoiceover, drawEarlyChunk } });
  stopWorker = worker.stop;
  temporal = worker.client;
}, 60_000);
afterAll(async () => {
  await stopWorker?.();
  await prisma.$disconnect();
});

describe("make-video: render chunks drawn while the scene media are made", () => {
  it("draws the first chunk while later scenes lack their voiceover; the render takes it as drawn; the video is whole", { timeout: 480_000 }, async () => {
    const user = await createTestUser();
    const options = MakeVideoOptionsSchema.parse({
      title: EARLY_TITLE,
      topic: "How the moon pulls the oceans into tides twice a day",
      format: "9:16",
      duration: 15,
      quality: 720,
    });
    const { id, projectId } = await startMakeVideo(user.id, options, {
      makeCurrent: false,
      tuning: TUNING,
    });
    const deadline = Date.now() + 7 * 60_000;
    let row = await prisma.videoRun.findUniqueOrThrow({ where: { id } });
    // what the doors said while it ran (decision 297): the render running beside the pictures and voiceovers
    let renderBesideMedia: string | null = null;
    while (row.status === "running" && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 500));
      row = await prisma.videoRun.findUniqueOrThrow({ where: { id } });
      if (renderBesideMedia === null && row.status === "running") {
        const seen = await runProgressOf(row);
        const statusOf = (stage: string) => seen.stages.find((s) => s.stage === stage)?.status;
        if (statusOf("media") === "running" && statusOf("render") === "running") renderBesideMedia = seen.progressLine;
      }
    }
    expect(row.error).toBeNull();
    expect(row.status).toBe("completed");
    expect(renderBesideMedia, "the render shown running while the scenes were still made").toMatch(/render running/);
    console.log(`while the first chunk was drawn: ${renderBesideMedia}`);
    // and recorded so: the render stage began before the media stage ended
    const times = row.stageTimes as { stage: string; startedAt: number; endedAt: number }[];
    expect(times.find((s) => s.stage === "render")!.startedAt).toBeLessThan(times.find((s) => s.stage === "media")!.endedAt);
    expect((await temporal.workflow.getHandle(makeVideoWorkflowId(projectId)).query(makeVideoProgressQuery)).status).toBe("completed");

    // what each of the render's chunks answered: taken as drawn early, or drawn by the render
    const events = (await temporal.workflow.getHandle(renderWorkflowId(projectId)).fetchHistory()).events ?? [];
    const chunks = events
      .flatMap((e) => {
        const data = e.activityTaskCompletedEventAttributes?.result?.payloads?.[0]?.data;
        if (!data?.length) return [];
        const value = JSON.parse(Buffer.from(data).toString()) as {
          chunk?: number;
          mediaFileId?: string;
          reused?: boolean;
        };
        return typeof value.chunk === "number" && value.mediaFileId ? [value] : [];
      })
      .sort((a, b) => a.chunk! - b.chunk!);
    // what the run's looks found (ready scenes, chunks drawn early), for the log
    const looks = ((await temporal.workflow.getHandle(makeVideoWorkflowId(projectId)).fetchHistory()).events ?? []).flatMap((e) => {
      const data = e.activityTaskCompletedEventAttributes?.result?.payloads?.[0]?.data;
      let value: { ready?: number; scenes?: number; drawn?: number; never?: string | null } | null = null;
      try {
        value = data?.length ? JSON.parse(Buffer.from(data).toString()) : null;
      } catch {
        // an activity with no answer (null, or binary)
      }
      return value && typeof value.ready === "number" && "never" in value ? [value] : [];
    });
    const parts = await prisma.renderChunkPart.findMany({ where: { projectId } });
    console.log(
      `early chunk looks: ${JSON.stringify(looks)}; render chunks: ${JSON.stringify(chunks)}; kept: ${JSON.stringify(
        parts.map((p) => [p.key.slice(0, 8), p.frames])
      )}`
    );
    expect(chunks.length).toBeGreaterThanOrEqual(2);
    expect(chunks[0]!.reused).toBe(true);
    // the last chunk waits for the last scene: the render drew it
    expect(chunks.at(-1)!.reused ?? false).toBe(false);

    // the chunk was drawn by a look that found only some scenes with their picture and voiceover
    expect(looks.some((look) => (look.drawn ?? 0) > 0 && look.ready! < look.scenes!)).toBe(true);

    // the render started while the first chunk was being drawn: it asked for that chunk only after the run said its
    // draw was over (the signal comes before the chunk's activity in the render's history)
    const settledAt = events.findIndex((e) => e.workflowExecutionSignaledEventAttributes?.signalName === "renderEarlyChunkSettled");
    const firstChunkAskedAt = events.findIndex((e) => {
      const data = e.activityTaskScheduledEventAttributes?.input?.payloads?.[0]?.data;
      if (e.activityTaskScheduledEventAttributes?.activityType?.name !== "renderVideoChunk" || !data?.length) return false;
      return (JSON.parse(Buffer.from(data).toString()) as { chunk: { index: number } }).chunk.index === 0;
    });
    expect(settledAt, "the run told the render the first chunk's draw was over").toBeGreaterThan(-1);
    expect(firstChunkAskedAt).toBeGreaterThan(settledAt);

    // the video is whole: as long as its scenes' voiceovers, with sound
    const video = await prisma.renderedVideo.findFirstOrThrow({
      where: { projectId, status: "completed" },
    });
    const file = await findMediaForUser(user.id, video.mediaFileId!);
    const facts = await withLocalMediaCopy(file!, probeVideo);
    const cells = await prisma.storyboardCell.findMany({
      where: { storyboard: { projectId } },
    });
    const spoken = cells.reduce((sum, c) => sum + (c.audioDuration ?? 0), 0);
    expect(Math.abs(facts.video.durationSeconds - spoken)).toBeLessThan(0.5 * cells.length + 0.5);
    expect(facts.audio).not.toBeNull();
    expect(Math.abs(facts.audio!.durationSeconds - facts.video.durationSeconds)).toBeLessThan(0.2);
    console.log(
      `early chunks: ${cells.length} scenes, ${chunks.length} chunks, taken as drawn early: ${chunks
        .filter((c) => c.reused)
        .map((c) => c.chunk! + 1)
        .join(", ")}`
    );
  });
});

const base = "http://localhost:3000";
/** The creator's own picture for the edited scene: a colour no offline picture has. */
const MAGENTA = { r: 230, g: 20, b: 200 };

/** What each chunk activity of the project's render answered (taken as kept, or drawn), in chunk order. */
async function renderChunksOf(projectId: string) {
  const events = (await temporal.workflow.getHandle(renderWorkflowId(projectId)).fetchHistory()).events ?? [];
  return events
    .flatMap((e) => {
      const data = e.activityTaskCompletedEventAttributes?.result?.payloads?.[0]?.data;
      if (!data?.length) return [];
      const value = JSON.parse(Buffer.from(data).toString()) as { chunk?: number; mediaFileId?: string; reused?: boolean };
      return typeof value.chunk === "number" && value.mediaFileId ? [value as { chunk: number; mediaFileId: string; reused?: boolean }] : [];
    })
    .sort((a, b) => a.chunk - b.chunk);
}

/** A stored video's picture, decoded: each frame's MD5 (the sound left out). */
async function framesOf(userId: string, mediaFileId: string): Promise<string[]> {
  const file = await findMediaForUser(userId, mediaFileId);
  const out = await withLocalMediaCopy(file!, async (local) => (await run("ffmpeg", ["-v", "error", "-i", local, "-map", "0:v", "-f", "framemd5", "-"], { maxBuffer: 1 << 24 })).stdout);
  return out
    .split("\n")
    .filter((l) => /^\d/.test(l))
    .map((l) => l.split(",").at(-1)!.trim());
}

/** A stored file's SHA-256. */
async function shaOf(userId: string, mediaFileId: string): Promise<string> {
  const file = await findMediaForUser(userId, mediaFileId);
  return withLocalMediaCopy(file!, async (local) =>
    createHash("sha256")
      .update(await readFile(local))
      .digest("hex"),
  );
}

/** The mean colour of the top fifth of a stored video's frame `n` (above any caption), scaled down to one pixel. */
async function meanColourOf(userId: string, mediaFileId: string, n: number): Promise<{ r: number; g: number; b: number }> {
  const file = await findMediaForUser(userId, mediaFileId);
  const pixel = await withLocalMediaCopy(file!, async (local) => {
    const args = ["-v", "error", "-i", local, "-vf", `select='eq(n,${n})',crop=iw:ih/5:0:0,scale=1:1:flags=area`, "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgb24", "-"];
    return (await run("ffmpeg", args, { encoding: "buffer", maxBuffer: 1 << 20 })).stdout;
  });
  return { r: pixel[0]!, g: pixel[1]!, b: pixel[2]! };
}
const CYAN = { r: 20, g: 210, b: 230 };
const near = (c: { r: number; g: number; b: number }, to: typeof MAGENTA) => Math.abs(c.r - to.r) < 60 && Math.abs(c.g - to.g) < 60 && Math.abs(c.b - to.b) < 60;
const isMagenta = (c: { r: number; g: number; b: number }) => near(c, MAGENTA);
const isCyan = (c: { r: number; g: number; b: number }) => near(c, CYAN);

describe("make-video: scenes edited while the run draws its render's chunks, and while it renders", () => {
  it("draws only the edited scenes' chunks again; the chunks drawn before the edits are the same files; the video shows both edits", { timeout: 480_000 }, async () => {
    const user = await createTestUser();
    const cookie = await sessionCookieFor(user.id);
    // the creator's own words: six short scenes (a blank line between them), each about a chunk's length
    const options = MakeVideoOptionsSchema.parse({
      title: EDITED_TITLE,
      script: [
        "Honey bees dance to share where the flowers are.",
        "A waggle run points the way toward the food.",
        "The longer the waggle, the farther the flowers lie.",
        "Other bees follow the dancer and learn the route.",
        "Then they fly out and find the same blossoms.",
        "The whole hive eats because one bee danced.",
      ].join("\n\n"),
      format: "9:16",
      quality: 720,
    });
    // the run's project is the creator's current one, as /create makes it: the storyboard's upload edits that one.
    // Voiceovers 3 s apart: the media stage goes on for a while after the first chunks are drawn, even when drawing
    // them is slow on busy cores (at 1.5 s the margin was a few voiceovers at load 16)
    const { id, projectId } = await startMakeVideo(user.id, options, {
      tuning: { ...TUNING, generateAllPauses: { imageBatchMs: 0, voiceoverMs: 3000 } },
    });

    // two chunks drawn early, while the later scenes wait for their voiceovers
    const deadline = Date.now() + 6 * 60_000;
    let early: { mediaFileId: string; frames: number }[] = [];
    for (;;) {
      early = await prisma.renderChunkPart.findMany({ where: { projectId }, orderBy: { createdAt: "asc" }, select: { mediaFileId: true, frames: true } });
      if (early.length >= 2) break;
      const row = await prisma.videoRun.findUniqueOrThrow({ where: { id } });
      expect(row.status, `the run ended before two chunks were drawn early (${row.error})`).toBe("running");
      expect(Date.now(), "no two chunks were drawn early").toBeLessThan(deadline);
      await new Promise((r) => setTimeout(r, 200));
    }

    // the creator uploads a picture of their own for scene 1 (the first chunk's), through the storyboard's route
    const upload = async (cellIndex: number, colour: typeof MAGENTA) => {
      const picture = await sharp({ create: { width: 360, height: 640, channels: 3, background: colour } })
        .png()
        .toBuffer();
      const form = new FormData();
      form.append("cellIndex", String(cellIndex));
      form.append("file", new File([new Uint8Array(picture)], "my-bees.png", { type: "image/png" }));
      const answer = await callRoute(sceneMedia, new Request(`${base}/api/scene-media`, { method: "POST", headers: { Cookie: cookie, Origin: base }, body: form }));
      expect(answer.status, await answer.clone().text()).toBe(200);
      const cell = await prisma.storyboardCell.findFirstOrThrow({ where: { storyboard: { projectId }, cellIndex } });
      expect(cell.imageSource).toBe("upload");
      return cell;
    };
    const edited = await upload(0, MAGENTA);
    // the edit came while the scene media were still being made: mid-pipeline, before the render began
    expect((await temporal.workflow.getHandle(generateAllWorkflowId(projectId)).describe()).status.name, "the edit came after Generate All").toBe("RUNNING");
    firstEditIn = true;

    // the chunks drawn before the edit, as they were: their bytes and frames; scene 1's middle frame not the upload
    const before = await Promise.all(early.map(async (part) => ({ sha: await shaOf(user.id, part.mediaFileId), md5s: await framesOf(user.id, part.mediaFileId) })));
    expect(before.map((p) => p.md5s.length)).toEqual(early.map((p) => p.frames));
    const middle = Math.floor(sceneBoundaries([edited.audioDuration ?? 1])[1]! / 2);
    const wasShown = await meanColourOf(user.id, early[0]!.mediaFileId, middle);
    expect(isMagenta(wasShown), `scene 1's frame ${middle} before the edit: ${JSON.stringify(wasShown)}`).toBe(false);

    // then, once the render has read its scenes, the last scene gets a picture of the creator's too: the render
    // goes on as it planned, and the run renders again after it, drawing only the last scene's chunk
    let planned = false;
    while (!planned) {
      planned = (await prisma.renderPlan.count({ where: { render: { projectId } } })) > 0;
      if (!planned) {
        const row = await prisma.videoRun.findUniqueOrThrow({ where: { id } });
        expect(row.status, `the run ended before its render planned (${row.error})`).toBe("running");
        expect(Date.now(), "the render never planned its scenes").toBeLessThan(deadline);
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    const lastIndex = (await prisma.storyboardCell.count({ where: { storyboard: { projectId } } })) - 1;
    const lastScene = await upload(lastIndex, CYAN);
    // (whether the render was still drawing: the run looks for edits once it ended, so either way the edit is seen)
    const renderState = (await temporal.workflow.getHandle(renderWorkflowId(projectId)).describe()).status.name;

    let row = await prisma.videoRun.findUniqueOrThrow({ where: { id } });
    while (row.status === "running" && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 500));
      row = await prisma.videoRun.findUniqueOrThrow({ where: { id } });
    }
    expect(row.error).toBeNull();
    expect(row.status).toBe("completed");
    // rendered twice: once as planned, once more for the scene edited while it rendered
    expect(await prisma.renderedVideo.count({ where: { projectId, status: "completed" } })).toBe(2);

    // the last render's chunks
    const chunks = await renderChunksOf(projectId);
    console.log(
      `edited mid-run: ${early.length} chunks drawn before the first edit; the render ${renderState} at the second; the last render's chunks ${JSON.stringify(chunks.map((c) => ({ chunk: c.chunk + 1, reused: c.reused ?? false, early: c.mediaFileId === early[c.chunk]?.mediaFileId })))}`,
    );
    expect(chunks.length).toBeGreaterThan(early.length);
    // the render after the second edit drew the last scene's chunk alone and took every other one as kept
    expect(chunks.filter((c) => !c.reused).map((c) => c.chunk)).toEqual([chunks.length - 1]);
    // scene 1's chunk was drawn again after the first edit (by a later look of the run, or by its render) ...
    expect(chunks[0]!.mediaFileId).not.toBe(early[0]!.mediaFileId);
    // ... and every other chunk drawn before the edits is used as it was: the same stored file, the same bytes
    for (let k = 1; k < early.length; k++) {
      expect(chunks[k]!.mediaFileId, `chunk ${k + 1} is the file drawn before the edits`).toBe(early[k]!.mediaFileId);
      expect(await shaOf(user.id, early[k]!.mediaFileId)).toBe(before[k]!.sha);
    }
    // the first chunk's old file went with a join (a project keeps its latest render's chunks only)
    expect(await prisma.mediaFile.findUnique({ where: { id: early[0]!.mediaFileId } })).toBeNull();

    // the finished video: the new first chunk, then the chunks drawn before the edits, frame for frame
    const video = await prisma.renderedVideo.findFirstOrThrow({ where: { projectId, status: "completed" }, orderBy: { createdAt: "desc" } });
    const final = await framesOf(user.id, video.mediaFileId!);
    const firstChunk = await framesOf(user.id, chunks[0]!.mediaFileId);
    expect(final.slice(0, firstChunk.length)).toEqual(firstChunk);
    expect(firstChunk).toHaveLength(before[0]!.md5s.length);
    expect(firstChunk[middle]).not.toBe(before[0]!.md5s[middle]);
    let at = firstChunk.length;
    for (let k = 1; k < early.length; k++) {
      expect(final.slice(at, at + before[k]!.md5s.length), `chunk ${k + 1}'s frames`).toEqual(before[k]!.md5s);
      at += before[k]!.md5s.length;
    }
    // and scene 1 and the last scene show the creator's pictures
    const shown = await meanColourOf(user.id, video.mediaFileId!, middle);
    expect(isMagenta(shown), `scene 1's frame ${middle} after the edit: ${JSON.stringify(shown)}`).toBe(true);
    const lastMiddle = final.length - Math.ceil(sceneBoundaries([lastScene.audioDuration ?? 1])[1]! / 2);
    const lastShown = await meanColourOf(user.id, video.mediaFileId!, lastMiddle);
    expect(isCyan(lastShown), `the last scene's frame ${lastMiddle} after the edit: ${JSON.stringify(lastShown)}`).toBe(true);
    // the sound is whole too: as long as the picture
    const facts = await withLocalMediaCopy((await findMediaForUser(user.id, video.mediaFileId!))!, probeVideo);
    expect(Math.abs(facts.audio!.durationSeconds - facts.video.durationSeconds)).toBeLessThan(0.2);
  });
});
