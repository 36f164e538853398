// A full disk (issue 31, decision 182): the media folder (then the worker's work folder) is a small tmpfs mounted
// for real, filled to the last byte, and a creator adds background music (a stage that writes a new video into
// media) on a worker process of its own. The stage fails with words a creator can act on, nothing half-written is
// left or served, and once space is freed the same request succeeds. Needs root (mount); elsewhere the test is
// skipped and says why.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { prisma } from "~/core/db.server";
import { getTemporalClient } from "~/server/temporal.server";
import { mediaUrl, saveMedia } from "~/core/storage.server";
import * as latestVideoRoute from "~/routes/render/api.latest-video";
import * as mixRoute from "~/routes/music/api.render-background-music";
import * as renderProgressRoute from "~/routes/render/api.render-progress";
import * as renderRoute from "~/routes/render/api.render-video";
import { DISK_FULL_MESSAGE } from "../../workflows/shared/errors";
import { renderWorkflowId } from "../../workflows/shared/render";
import { seedRenderedVideo } from "../fixtures/music-project";
import { seedRenderableProject, toneWav } from "../fixtures/render-project";
import { probeVideo } from "../fixtures/video-probe";
import { createTestUser, sessionCookieFor } from "../support/auth";
import { callRoute } from "../support/routes";
import { killAllWorkerProcesses, startWorkerProcess } from "../support/worker-process";

const media = path.join(process.env.DATA_DIR!, "media");
const workerTmp = fs.mkdtempSync(path.join(os.tmpdir(), "reelsmith-disk-full-tmp-"));

/** Why a tmpfs cannot be mounted here (not root, or mount refused), or null when it can: tried on a scratch folder. */
function mountProblem(): string | null {
  if (process.getuid?.() !== 0) return "mounting a small tmpfs as the media folder needs root";
  const probe = fs.mkdtempSync(path.join(os.tmpdir(), "reelsmith-mount-probe-"));
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=1m", "tmpfs", probe], { stdio: "pipe" });
    execFileSync("umount", [probe], { stdio: "pipe" });
    return null;
  } catch (e) {
    return `mount -t tmpfs is not permitted here (${String((e as { stderr?: Buffer }).stderr ?? e).trim()})`;
  } finally {
    fs.rmSync(probe, { recursive: true, force: true });
  }
}
const problem = mountProblem();
if (problem) console.warn(`disk-full drill skipped: ${problem}`);

/** Every file under the media folder, relative to it. */
function filesIn(dir: string, root = dir): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesIn(path.join(dir, e.name), root) : [path.relative(root, path.join(dir, e.name))]));
}

/** Writes into `file` until the file system has no byte left (ENOSPC), as a disk filled by anything would be. */
function fillUp(file: string) {
  const fd = fs.openSync(file, "w");
  const block = Buffer.alloc(64 * 1024, 1);
  try {
    for (;;) fs.writeSync(fd, block);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "ENOSPC") throw e;
  } finally {
    fs.closeSync(fd);
  }
}

beforeAll(async () => {
  if (problem) return;
  fs.mkdirSync(media, { recursive: true });
  execFileSync("mount", ["-t", "tmpfs", "-o", "size=16m,mode=0700", "tmpfs", media]);
  // the real worker, in a process of its own, with its work folders somewhere we can look
  await startWorkerProcess("all-stages", { taskQueue: process.env.TEMPORAL_TASK_QUEUE!, env: { TMPDIR: workerTmp } });
}, 120_000);

afterAll(async () => {
  await killAllWorkerProcesses();
  if (!problem) execFileSync("umount", ["-l", media]);
  fs.rmSync(workerTmp, { recursive: true, force: true });
  await prisma.$disconnect();
});

/** A creator with a rendered 4 s video and a finished track, ready to add background music; and that request. */
async function creatorReadyToMix(title: string) {
  const user = await createTestUser();
  const cookie = await sessionCookieFor(user.id);
  const project = await prisma.project.create({ data: { userId: user.id, title, topic: "bees", resolution: "landscape", durationSeconds: 30 } });
  await prisma.user.update({ where: { id: user.id }, data: { currentProjectId: project.id } });
  const render = await seedRenderedVideo({ userId: user.id, projectId: project.id, seconds: 4 });
  const track = await saveMedia({ userId: user.id, projectId: project.id, kind: "music", data: toneWav(4, 196, 0.8), mimeType: "audio/wav", extension: "wav", durationSeconds: 4 });
  await prisma.musicTrack.create({ data: { projectId: project.id, title: "Meadow Bed", prompt: "calm", status: "completed", audioUrl: mediaUrl(track), mediaFileId: track.id, duration: 4 } });
  const mix = () =>
    callRoute(
      mixRoute.action,
      new Request("http://localhost:3000/api/render-background-music", {
        method: "POST",
        headers: { Cookie: cookie, "Content-Type": "application/json" },
        body: JSON.stringify({ volumeLevel: 30 }),
      }),
    );
  return { user, cookie, project, render, mix };
}

type Creator = Awaited<ReturnType<typeof creatorReadyToMix>>;

/** The mix refused in the creator's words, with nothing new in media, no mixed video, the old one still shown. */
async function expectRefusedCleanly({ user, cookie, project, render, mix }: Creator, filesBefore: string[], rowsBefore: number) {
  const refused = await mix();
  expect(refused.status).toBe(422);
  expect(((await refused.json()) as { message: string }).message).toBe(DISK_FULL_MESSAGE);
  // ...also in the error log the owner reads
  expect(await prisma.errorLog.findFirst({ where: { userId: user.id }, orderBy: { createdAt: "desc" } })).toMatchObject({ message: DISK_FULL_MESSAGE });
  // nothing half-written: no new file (not even a temporary one), no new row, no mixed video recorded
  expect(filesIn(media)).toEqual(filesBefore);
  expect(await prisma.mediaFile.count()).toBe(rowsBefore);
  expect(await prisma.renderedVideo.count({ where: { projectId: project.id, baseVideoId: { not: null } } })).toBe(0);
  // the Render page still shows the video that was there, whole
  const latest = (await (await callRoute(latestVideoRoute.loader, new Request("http://localhost:3000/api/latest-video", { headers: { Cookie: cookie } }))).json()) as { videoUrl: string };
  expect(latest.videoUrl).toBe(render.videoUrl);
  // and the mix's work folder went with the failed attempt
  expect(fs.readdirSync(workerTmp).filter((n) => n.startsWith("reelsmith-music-mix-"))).toEqual([]);
}

/** Once space is free, the same request makes one whole mixed video, stored and recorded. */
async function expectMixedOnRetry({ project, mix }: Creator) {
  const mixed = await mix();
  expect(mixed.status).toBe(200);
  const { videoUrl } = (await mixed.json()) as { videoUrl: string };
  const rows = await prisma.renderedVideo.findMany({ where: { projectId: project.id, baseVideoId: { not: null } } });
  expect(rows).toHaveLength(1);
  expect(rows[0]!.videoUrl).toBe(videoUrl);
  const file = await prisma.mediaFile.findUniqueOrThrow({ where: { id: rows[0]!.mediaFileId! } });
  const facts = await probeVideo(path.join(media, file.storageKey));
  expect(facts.audio).not.toBeNull();
  expect(facts.video.durationSeconds).toBeCloseTo(4, 0);
  expect(fs.statSync(path.join(media, file.storageKey)).size).toBe(Number(file.bytes));
  expect(filesIn(media).filter((f) => f.endsWith(".partial"))).toEqual([]);
}

describe.skipIf(problem)(`a full disk while a stage writes media${problem ? ` (skipped: ${problem})` : ""}`, () => {
  it("the media folder full: the music mix fails with a clear message, leaves nothing half-written, and succeeds on retry once space is free", { timeout: 240_000 }, async () => {
    const creator = await creatorReadyToMix("Full Media Disk");
    const filler = path.join(media, "filler");
    fillUp(filler);
    expect(fs.statfsSync(media).bavail).toBe(0);
    await expectRefusedCleanly(creator, filesIn(media), await prisma.mediaFile.count());
    fs.rmSync(filler);
    await expectMixedOnRetry(creator);
  });

  it("the worker's work folder full (ffmpeg cannot write the mix): the same message, nothing left, and success once space is free", { timeout: 240_000 }, async () => {
    const creator = await creatorReadyToMix("Full Work Disk");
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=2m", "tmpfs", workerTmp]);
    try {
      const filler = path.join(workerTmp, "filler");
      fillUp(filler);
      expect(fs.statfsSync(workerTmp).bavail).toBe(0);
      await expectRefusedCleanly(creator, filesIn(media), await prisma.mediaFile.count());
      fs.rmSync(filler);
      await expectMixedOnRetry(creator);
    } finally {
      execFileSync("umount", ["-l", workerTmp]);
    }
  });

  it("the worker's work folder full during a render: the render stops with the same message, the exact renderer does not take over, and it renders once space is free", { timeout: 240_000 }, async () => {
    const user = await createTestUser();
    const cookie = await sessionCookieFor(user.id);
    const { projectId } = await seedRenderableProject({ userId: user.id, sceneSeconds: [2, 2] });
    await prisma.user.update({ where: { id: user.id }, data: { currentProjectId: projectId } });
    const post = (pathname: string, route: typeof renderRoute.action, body: unknown) =>
      callRoute(route, new Request(`http://localhost:3000${pathname}`, { method: "POST", headers: { Cookie: cookie, "Content-Type": "application/json" }, body: JSON.stringify(body) }));
    const latestRender = () => prisma.renderedVideo.findFirstOrThrow({ where: { projectId }, orderBy: { createdAt: "desc" } });
    const renderEnded = async () => {
      await expect.poll(async () => (await latestRender()).status, { timeout: 180_000, interval: 500 }).toMatch(/completed|error/);
      return latestRender();
    };
    // what the Render page shows once it is over
    const shown = async () =>
      (await (await callRoute(renderProgressRoute.loader, new Request("http://localhost:3000/api/render-progress", { headers: { Cookie: cookie } }))).json()) as { isActive: boolean; error: string | null };

    execFileSync("mount", ["-t", "tmpfs", "-o", "size=2m", "tmpfs", workerTmp]);
    try {
      fillUp(path.join(workerTmp, "filler"));
      expect((await post("/api/render-video", renderRoute.action, { quality: 720 })).status).toBe(202);
      // the fast renderer's failure stayed its own: no slower exact render of a disk that is still full
      expect(await renderEnded()).toMatchObject({ status: "error", renderer: "fast", error: DISK_FULL_MESSAGE });
      expect(await shown()).toMatchObject({ isActive: false, error: DISK_FULL_MESSAGE });
      fs.rmSync(path.join(workerTmp, "filler"));
      // the page shows the error once the row says so; the run itself closes a moment later (until then a new
      // render is one too many: 429), so the retry waits for that, as a creator reading the message does
      await (await getTemporalClient()).workflow.getHandle(renderWorkflowId(projectId)).result().catch(() => undefined);
      expect((await post("/api/render-video", renderRoute.action, { quality: 720 })).status).toBe(202);
      expect(await renderEnded()).toMatchObject({ status: "completed", renderer: "fast" });
      // the render's work folder goes as its activity ends, a moment after it marked the row completed
      await expect.poll(() => fs.readdirSync(workerTmp).filter((n) => n.startsWith("reelsmith-render-")), { timeout: 15_000 }).toEqual([]);
    } finally {
      execFileSync("umount", ["-l", workerTmp]);
    }
  });
});
