// Issue 51's done-when check for Shorts: from a 5-minute 16:9 video (20 scenes of 15 s, offline pictures, tone
// voiceovers with word timings; tests/fixtures/long-source.ts), the three suggested runs made into three Shorts of at
// most 60 s at 1080x1920: every caption the renderer draws over any of their frames inside the vertical safe zone
// (each caption picture rasterised by the fast renderer's own caption pass at 1080x1920, its visible pixels
// measured), each scene's subject inside its crop (the offline pictures' subject boxes), the end card as the last
// scene and in the rendered video's last frames, and the dashboard listing the three under their source. To keep the
// suite fast, only one Short is rendered, small (216x384); the caption pictures are made at full size.
import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { prisma } from "~/core/db.server";
import { findMediaForUser, mediaFilePath, readMedia } from "~/core/storage.server";
import { DEFAULT_CAPTION_STYLE } from "~/lib/caption-style";
import { action as shortsAction, loader as shortsLoader } from "~/routes/projects/api.projects.$id.shorts";
import { loader as dashboardLoader } from "~/routes/projects/dashboard";
import { SAFE_ZONES } from "../../app/lib/timeline/captions";
import { buildTimeline } from "../../app/lib/timeline/timeline";
import { planProps, prepareRenderPlan } from "../../workflows/activities/render";
import { closeBrowser } from "../../workflows/engine/render-engine";
import { rasteriseCaptions } from "../../workflows/engine/render-fast";
import { renderVideoWorkflow } from "../../workflows/render";
import { renderWorkflowId } from "../../workflows/shared/render";
import { LONG_SCENE_SECONDS, seedLongSource } from "../fixtures/long-source";
import { probeVideo } from "../fixtures/video-probe";
import { createTestUser, sessionCookieFor } from "../support/auth";
import { callRoute } from "../support/routes";
import { screenshotsDir } from "../support/screenshots";
import { startTestWorker } from "../support/temporal";

const run = promisify(execFile);
const base = "http://localhost:3000";
const FRAME = { width: 1080, height: 1920 };
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "reelsmith-shorts-5min-"));

let testWorker: Awaited<ReturnType<typeof startTestWorker>>;
let userId: string;
let cookie: string;
let sourceId: string;

beforeAll(async () => {
  testWorker = await startTestWorker({ stage: "render" });
  userId = (await createTestUser()).id;
  cookie = await sessionCookieFor(userId);
  sourceId = (await seedLongSource(userId)).id;
}, 420_000);

afterAll(async () => {
  await testWorker?.stop();
  await closeBrowser();
  await prisma.$disconnect();
  fs.rmSync(dir, { recursive: true, force: true });
});

const request = (url: string, init: RequestInit = {}) => new Request(`${base}${url}`, { ...init, headers: { Cookie: cookie, "Content-Type": "application/json", ...init.headers } });

/** The visible (non-transparent) box of a caption picture, in the frame's pixels. */
async function visibleBox(png: string, x: number, y: number) {
  const { info } = await sharp(png).trim({ threshold: 0 }).toBuffer({ resolveWithObject: true });
  const left = x - (info.trimOffsetLeft ?? 0);
  const top = y - (info.trimOffsetTop ?? 0);
  return { left, top, right: left + info.width, bottom: top + info.height };
}

/** Mean absolute difference of two pictures' RGB bytes at the same small size (0 to 255). */
async function difference(a: Buffer, b: Buffer) {
  const small = (image: Buffer) => sharp(image).resize(108, 192, { fit: "fill" }).removeAlpha().raw().toBuffer();
  const [x, y] = await Promise.all([small(a), small(b)]);
  let sum = 0;
  for (let i = 0; i < x.length; i++) sum += Math.abs(x[i]! - y[i]!);
  return sum / x.length;
}

describe("three Shorts from a five-minute video", () => {
  it("are at most 60 s at 1080x1920, their captions in the vertical safe zone, subjects in their crops, ending on the end card, shown under their source", { timeout: 600_000 }, async () => {
    const cells = await prisma.storyboardCell.findMany({ where: { storyboard: { projectId: sourceId } }, orderBy: { cellIndex: "asc" } });
    const whole = cells.reduce((s, c) => s + c.audioDuration! + 0.3, 0);
    expect(whole).toBeGreaterThanOrEqual(300);

    const options = await (await callRoute(shortsLoader, request(`/api/projects/${sourceId}/shorts?maxSeconds=60`), { id: sourceId })).json();
    expect(options.suggestions).toHaveLength(3);
    const picks = options.suggestions as { fromScene: number; toScene: number; seconds: number; hook: string }[];
    for (const [i, pick] of picks.entries()) {
      expect(pick.seconds).toBeLessThanOrEqual(60);
      // three different moments of the video, not overlapping
      if (i > 0) expect(pick.fromScene).toBeGreaterThan(picks[i - 1]!.toScene);
    }

    const shorts = [];
    for (const pick of picks) {
      const made = await callRoute(shortsAction, request(`/api/projects/${sourceId}/shorts`, { method: "POST", body: JSON.stringify({ fromScene: pick.fromScene, toScene: pick.toScene, maxSeconds: 60 }) }), { id: sourceId });
      expect(made.status).toBe(201);
      shorts.push(await made.json());
    }

    const zone = SAFE_ZONES.vertical;
    const safe = { left: FRAME.width * zone.left, top: FRAME.height * zone.top, right: FRAME.width * (1 - zone.right), bottom: FRAME.height * (1 - zone.bottom) };
    for (const [n, short] of shorts.entries()) {
      const pick = picks[n]!;
      expect(short.seconds).toBeLessThanOrEqual(60);
      const project = await prisma.project.findUniqueOrThrow({ where: { id: short.projectId }, include: { storyboard: { include: { cells: { orderBy: { cellIndex: "asc" } } } } } });
      expect(project).toMatchObject({ resolution: "shorts", sourceProjectId: sourceId, derivedKind: "short" });
      const shortCells = project.storyboard!.cells;
      expect(shortCells).toHaveLength(pick.toScene - pick.fromScene + 2);
      for (const cell of shortCells) {
        const picture = await sharp(await readMedia((await findMediaForUser(userId, cell.imageFileId!))!)).metadata();
        expect([picture.width, picture.height]).toEqual([FRAME.width, FRAME.height]);
      }
      // each scene's subject (the offline picture's box) inside the part of the picture the Short shows
      expect(short.reframing).toHaveLength(pick.toScene - pick.fromScene + 1);
      for (const r of short.reframing) {
        expect(r.method).toBe("subject");
        expect(r.subject.left).toBeGreaterThanOrEqual(r.crop.left);
        expect(r.subject.top).toBeGreaterThanOrEqual(r.crop.top);
        expect(r.subject.left + r.subject.size).toBeLessThanOrEqual(r.crop.left + r.crop.width);
        expect(r.subject.top + r.subject.size).toBeLessThanOrEqual(r.crop.top + r.crop.height);
      }
      // the end card: a silent last scene
      expect(shortCells.at(-1)).toMatchObject({ voiceoverText: "", audioDuration: 2.5 });

      // every caption of the Short as the renderer draws it at 1080x1920: its visible pixels in the safe zone
      const plan = await prepareRenderPlan({ renderId: randomUUID(), userId, projectId: short.projectId, ...FRAME, captions: true, captionStyle: DEFAULT_CAPTION_STYLE });
      expect(plan.scenes).toHaveLength(shortCells.length);
      const timeline = buildTimeline(planProps(plan, (kind, i) => `${kind}-${i}`));
      const spoken = timeline.scenes.slice(0, -1);
      // captions over every spoken scene, none over the end card
      for (const scene of spoken) expect(timeline.overlays.some((o) => o.sceneIndex === scene.index)).toBe(true);
      expect(timeline.overlays.some((o) => o.sceneIndex === timeline.scenes.at(-1)!.index)).toBe(false);
      const workDir = path.join(dir, `short-${n}`);
      fs.mkdirSync(workDir, { recursive: true });
      const images = await rasteriseCaptions(timeline, workDir);
      expect(images).toHaveLength(timeline.overlays.length);
      const captionFrames = timeline.overlays.reduce((s, o) => s + o.durationInFrames, 0);
      expect(captionFrames).toBeGreaterThan(0.8 * spoken.reduce((s, sc) => s + sc.durationInFrames, 0));
      for (const [i, image] of images.entries()) {
        const box = await visibleBox(image.png, image.x, image.y);
        const where = `Short ${n + 1}, caption ${i + 1} "${timeline.overlays[i]!.text}"`;
        expect(box.left, where).toBeGreaterThanOrEqual(safe.left - 1);
        expect(box.top, where).toBeGreaterThanOrEqual(safe.top - 1);
        expect(box.right, where).toBeLessThanOrEqual(safe.right + 1);
        expect(box.bottom, where).toBeLessThanOrEqual(safe.bottom + 1);
      }
    }

    // the dashboard lists the three under their source
    const dashboard = await (await callRoute(dashboardLoader, request("/dashboard"))).json();
    const family = dashboard.projects.filter((p: { sourceProjectId: string | null }) => p.sourceProjectId === sourceId);
    expect(family.map((p: { id: string }) => p.id).sort()).toEqual(shorts.map((s) => s.projectId).sort());
    expect(family.every((p: { derivedKind: string }) => p.derivedKind === "short")).toBe(true);

    // one Short rendered by the worker, small: 9:16, at most 60 s, its last frames the end card
    const short = shorts[0]!;
    const render = await prisma.renderedVideo.create({ data: { projectId: short.projectId, status: "processing", workflowId: renderWorkflowId(short.projectId) } });
    const result = await testWorker.client.workflow.execute(renderVideoWorkflow, {
      taskQueue: testWorker.taskQueue,
      workflowId: renderWorkflowId(short.projectId),
      args: [{ renderId: render.id, userId, projectId: short.projectId, width: 216, height: 384, captions: true, captionStyle: DEFAULT_CAPTION_STYLE }],
    });
    const rendered = mediaFilePath((await findMediaForUser(userId, result.mediaFileId))!);
    const facts = await probeVideo(rendered);
    expect(facts.video).toMatchObject({ width: 216, height: 384 });
    expect(facts.video.durationSeconds).toBeLessThanOrEqual(60);
    expect(facts.video.durationSeconds).toBeGreaterThan(3 * LONG_SCENE_SECONDS);
    const frameAt = async (seconds: number, name: string) => {
      const file = path.join(screenshotsDir(), name);
      await run("ffmpeg", ["-v", "error", "-ss", String(seconds), "-i", rendered, "-frames:v", "1", "-y", file]);
      return fs.promises.readFile(file);
    };
    const shortCells = await prisma.storyboardCell.findMany({ where: { storyboard: { projectId: short.projectId } }, orderBy: { cellIndex: "asc" } });
    const pictureOf = async (cellIndex: number) => readMedia((await findMediaForUser(userId, shortCells[cellIndex]!.imageFileId!))!);
    const endCard = await pictureOf(shortCells.length - 1);
    const lastScene = await pictureOf(shortCells.length - 2);
    // frames for people to look at: the hook over the first picture, a caption mid-Short, the end card
    await frameAt(2, "short-5min-frame-hook.png");
    await frameAt(LONG_SCENE_SECONDS * 1.5, "short-5min-frame-middle.png");
    const last = await frameAt(facts.video.durationSeconds - 0.5, "short-5min-frame-end-card.png");
    const toEndCard = await difference(last, endCard);
    expect(toEndCard).toBeLessThan(await difference(last, lastScene));
    expect(toEndCard).toBeLessThan(30);
  });
});
