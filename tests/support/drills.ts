// The drills of issue 31 (decision 182): one part of the running stack (web, worker, PostgreSQL, Temporal) is
// killed with SIGKILL while a stage runs (Generate All, a render, a music mix, an upload to the YouTube fake);
// the stage must then finish by itself with the right result, and the app must be usable again within 30 s.
// A journey is one creator's project taken through the four stages in order, each stage's result feeding the
// next, as a creator would: the integration test runs one journey (each part and each stage once), `npm run
// drills` runs four (every part at every stage). Stages are started over HTTP, the way the pages start them.
import fs from "node:fs";
import path from "node:path";
import { Client, Connection, type WorkflowHandle } from "@temporalio/client";
import { innermostMessage } from "../../workflows/shared/errors";
import { backgroundMusicWorkflowId } from "../../workflows/shared/music";
import { renderProgressQuery, renderWorkflowId, type RenderResult } from "../../workflows/shared/render";
import { generateAllProgressQuery, generateAllWorkflowId, type GenerateAllProgress } from "../../workflows/shared/scene-media";
import { youtubeUploadWorkflowId, type YoutubeUploadResult } from "../../workflows/shared/youtube-upload";
import { FAKE_CLIENT_ID, FAKE_CLIENT_SECRET } from "../fakes/youtube";
import { probeVideo } from "../fixtures/video-probe";
import type { DrillStack, Part } from "./drill-stack";

export const STAGES = ["generate-all", "render", "music-mix", "upload"] as const;
export type Stage = (typeof STAGES)[number];

/** The issue's promise: usable again within 30 s of the kill. */
export const USABLE_WITHIN_MS = 30_000;
/** How long a stage may take to finish after the kill before the drill counts as failed. */
const JOB_DEADLINE_MS = 300_000;
const SCENE_COUNT = 3;

export type DrillResult = {
  part: Part;
  stage: Stage;
  /** Seconds from the kill until a signed-in page, its status route and /healthz (database, Temporal) answered. */
  usableSeconds: number | null;
  /** Seconds from the kill until a workflow ran end to end again (/healthz?deep=1: web, Temporal, worker, database). */
  pipelineSeconds: number | null;
  /** Seconds from the kill until the stage had finished. */
  finishedSeconds: number | null;
  /** "ok", or what was wrong. */
  result: string;
};

export type Journey = { label: string; userId: string; projectId: string; cookie: string; title: string };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const seconds = (from: number) => Math.round((performance.now() - from) / 100) / 10;

async function until<T>(what: string, attempt: () => Promise<T | null | undefined | false>, timeoutMs: number, everyMs = 250): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last = "";
  for (;;) {
    try {
      const value = await attempt();
      if (value) return value;
    } catch (e) {
      last = e instanceof Error ? e.message : String(e);
    }
    if (Date.now() > deadline) throw new Error(`${what} within ${timeoutMs / 1000} s${last ? ` (last: ${last})` : ""}`);
    await sleep(everyMs);
  }
}

/** The drills' view of the stack: HTTP as a browser, a Temporal client, and the app's own modules for seeding and checking. */
export async function openDrills(stack: DrillStack) {
  const { prisma } = await import("~/core/db.server");
  const { createSession } = await import("~/server/session.server");
  const { updateConfig } = await import("~/core/settings.server");
  const { mediaUrl, saveMedia, mediaFilePath } = await import("~/core/storage.server");
  const { toneWav } = await import("../fixtures/render-project");
  const connection = await Connection.connect({ address: process.env.TEMPORAL_ADDRESS! });
  const temporal = new Client({ connection });
  const base = stack.baseUrl;

  const http = (route: string, cookie: string, init: RequestInit = {}) =>
    fetch(`${base}${route}`, {
      ...init,
      redirect: "manual",
      signal: AbortSignal.timeout(init.method === "POST" ? 600_000 : 5000),
      headers: { Cookie: cookie, Origin: base, ...(init.body ? { "Content-Type": "application/json" } : {}), ...init.headers },
    });
  const post = (route: string, cookie: string, body: unknown) => http(route, cookie, { method: "POST", body: JSON.stringify(body) });

  /** A creator with a 10 s Short: script and three scenes written (no media yet), a finished music track, YouTube connected. */
  async function startJourney(label: string): Promise<Journey> {
    const title = `Drill ${label}: honeybee dances`;
    const user = await prisma.user.create({ data: { email: `drill-${label}-${Date.now()}@example.com`, name: `Drill ${label}` } });
    const project = await prisma.project.create({
      data: {
        userId: user.id,
        title,
        topic: "How honeybees tell each other where the flowers are",
        resolution: "shorts",
        durationSeconds: 10,
        musicVolume: 20,
        script: { create: { status: "completed", text: "Bees dance to share directions.", wordCount: 5, targetWords: 25 } },
      },
    });
    const storyboard = await prisma.storyboard.create({ data: { projectId: project.id, title, status: "completed" } });
    const lines = ["Bees dance to tell the hive.", "The waggle points to the flowers.", "Longer dances mean farther fields."];
    await prisma.storyboardCell.createMany({
      data: lines.slice(0, SCENE_COUNT).map((voiceoverText, cellIndex) => ({
        storyboardId: storyboard.id,
        cellIndex,
        imagePrompt: `A honeybee dancing on a honeycomb, scene ${cellIndex + 1}`,
        voiceoverText,
        estimatedDuration: 10 / SCENE_COUNT,
      })),
    });
    const music = await saveMedia({ userId: user.id, projectId: project.id, kind: "music", data: toneWav(10, 196, 0.8), mimeType: "audio/wav", extension: "wav", durationSeconds: 10 });
    await prisma.musicTrack.create({
      data: { projectId: project.id, title: "Meadow Bed", prompt: "calm", status: "completed", audioUrl: mediaUrl(music), mediaFileId: music.id, duration: 10 },
    });
    await prisma.user.update({ where: { id: user.id }, data: { currentProjectId: project.id } });
    const cookie = (await createSession(user.id, { secure: false })).split(";")[0]!;

    // Connect YouTube the way the browser does: authorize, the fake's consent page, the callback page.
    await updateConfig(user.id, { googleOAuthClientId: FAKE_CLIENT_ID, googleOAuthClientSecret: FAKE_CLIENT_SECRET });
    const authorize = await http("/api/youtube/oauth/authorize", cookie);
    if (authorize.status !== 200) throw new Error(`authorize answered ${authorize.status}: ${await authorize.text()}`);
    const { authUrl } = (await authorize.json()) as { authUrl: string };
    const consent = await fetch(authUrl, { redirect: "manual" });
    const callback = await http(new URL(consent.headers.get("location")!).pathname + new URL(consent.headers.get("location")!).search, cookie);
    await callback.arrayBuffer();
    if (!(await prisma.youtubeConnection.findUnique({ where: { userId: user.id } }))) throw new Error(`connecting YouTube failed (callback ${callback.status})`);
    return { label, userId: user.id, projectId: project.id, cookie, title };
  }

  /** Every file under the creator's media folder, as storage keys ("<user>/<kind>/<name>"). */
  function filesOnDisk(userId: string): string[] {
    const root = path.join(stack.dataDir, "media");
    const found: string[] = [];
    const walk = (dir: string) => {
      for (const entry of fs.existsSync(dir) ? fs.readdirSync(dir, { withFileTypes: true }) : []) {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(full);
        else found.push(path.relative(root, full));
      }
    };
    walk(path.join(root, userId));
    return found.sort();
  }

  /**
   * What is left in the worker's TMPDIR that nothing will remove: a stage's work folder once the stage is done (a
   * killed attempt's included), or a composition bundle of a worker that no longer runs (a per-process one, or a
   * cached one it was building, decision 280; the finished cached bundle stays for the next worker).
   */
  function workFolders(): string[] {
    const alive = (pid: number) => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    return fs.readdirSync(stack.tmpDir).filter((name) => {
      if (/^reelsmith-(render|music-mix)/.test(name)) return true;
      const bundle = /^reelsmith-remotion-(?:bundle-|cache-\w+\.building-)(\d+)$/.exec(name);
      return bundle ? !alive(Number(bundle[1])) : false;
    });
  }

  /** No media file without its row, no row without its file, nothing half-written. */
  async function checkMedia(journey: Journey): Promise<string[]> {
    const problems: string[] = [];
    const rows = await prisma.mediaFile.findMany({ where: { userId: journey.userId } });
    const keys = new Set(rows.map((r) => r.storageKey));
    const disk = filesOnDisk(journey.userId);
    for (const file of disk) if (!keys.has(file)) problems.push(`a file no row names: ${file}`);
    for (const key of keys) if (!disk.includes(key)) problems.push(`a row whose file is missing: ${key}`);
    for (const row of rows) {
      const size = fs.existsSync(mediaFilePath(row)) ? fs.statSync(mediaFilePath(row)).size : -1;
      if (size !== Number(row.bytes)) problems.push(`${row.kind} ${row.id}: ${size} bytes on disk, ${row.bytes} recorded`);
    }
    return problems;
  }

  /** Starts the stage over HTTP; resolves to its workflow handle and a promise of the HTTP answer (some wait for the result). */
  async function startStage(journey: Journey, stage: Stage): Promise<{ handle: WorkflowHandle; answer: Promise<string> }> {
    const describe = async (response: Promise<Response>) => {
      try {
        const r = await response;
        return `${r.status} ${(await r.text()).slice(0, 300)}`;
      } catch (e) {
        return `no answer (${e instanceof Error ? e.message : String(e)})`;
      }
    };
    let request: Promise<Response>;
    let workflowId: string;
    if (stage === "generate-all") {
      request = post("/api/generate-all-content", journey.cookie, {});
      workflowId = generateAllWorkflowId(journey.projectId);
    } else if (stage === "render") {
      request = post("/api/render-video", journey.cookie, { quality: 720 });
      workflowId = renderWorkflowId(journey.projectId);
    } else if (stage === "music-mix") {
      request = post("/api/render-background-music", journey.cookie, { volumeLevel: 20 });
      workflowId = backgroundMusicWorkflowId(journey.projectId);
    } else {
      request = post("/api/youtube/upload", journey.cookie, { title: journey.title, description: "Drilled.", tags: ["bees"], privacyStatus: "private", categoryId: "28" });
      workflowId = youtubeUploadWorkflowId(journey.projectId);
    }
    const answer = describe(request);
    // the stage has started once its workflow runs (the answer of the mix and the upload waits for the end)
    const handle = await until(
      `the ${stage} workflow running`,
      async () => {
        const h = temporal.workflow.getHandle(workflowId);
        const d = await h.describe();
        if (d.status.name !== "RUNNING") {
          // an earlier run of the same id (a previous stage) is not this one
          if (Date.now() - d.startTime.getTime() > 60_000) return null;
          throw new Error(`${stage} is ${d.status.name} already: ${await answer}`);
        }
        return h;
      },
      60_000,
      100,
    ).catch(async (e: Error) => {
      // a refused request starts no workflow: say what it answered
      throw new Error(`${e.message}; POST answered: ${await Promise.race([answer, sleep(1000).then(() => "nothing yet")])}`);
    });
    return { handle, answer };
  }

  /** Waits until the stage is well under way: the moment to pull the plug. */
  async function waitForMidStage(stage: Stage, handle: WorkflowHandle): Promise<string> {
    if (stage === "generate-all") {
      const p = await until("Generate All's first image", async () => {
        const progress = (await handle.query(generateAllProgressQuery)) as GenerateAllProgress;
        return progress.imagesDone >= 1 ? progress : null;
      }, 120_000, 100);
      return `${p.imagesDone}/${p.imagesTotal} images, ${p.voiceoversDone}/${p.voiceoversTotal} voiceovers`;
    }
    if (stage === "render") {
      const p = await until("the render drawing frames", async () => {
        const state = await handle.query(renderProgressQuery);
        return state.status === "rendering" && state.progress >= 10 ? state : null;
      }, 180_000, 100);
      return `rendering, ${p.progress} %`;
    }
    if (stage === "upload") {
      const session = await until("the first chunk at the fake", async () => [...stack.youtube.sessions.values()].find((s) => s.storedBytes > 0 && !s.videoId), 120_000, 50);
      return `${session.storedBytes} of ${session.total} bytes at YouTube`;
    }
    return "mix started"; // an audio-only mix of 10 s takes about a second: the kill lands as soon as it runs
  }

  /** Until the signed-in pages answer and /healthz sees the database and Temporal; then until a workflow runs end to end. */
  async function measureRecovery(journey: Journey, killedAt: number, statusRoute: string) {
    let usableSeconds: number | null = null;
    let pipelineSeconds: number | null = null;
    try {
      await until(
        "the app usable",
        async () => {
          const health = (await (await http("/healthz", journey.cookie)).json()) as { database?: { ok: boolean }; temporal?: { ok: boolean } };
          if (!health.database?.ok || !health.temporal?.ok) return false;
          const [page, status] = await Promise.all([http("/dashboard", journey.cookie), http(statusRoute, journey.cookie)]);
          await Promise.all([page.arrayBuffer(), status.arrayBuffer()]);
          return page.status === 200 && status.status === 200;
        },
        120_000,
      );
      usableSeconds = seconds(killedAt);
      await until(
        "a workflow end to end",
        async () => {
          const response = await fetch(`${base}/healthz?deep=1`, { signal: AbortSignal.timeout(25_000) });
          return ((await response.json()) as { pipeline?: { ok: boolean } }).pipeline?.ok === true;
        },
        180_000,
        500,
      );
      pipelineSeconds = seconds(killedAt);
    } catch {
      // reported as not usable (null)
    }
    return { usableSeconds, pipelineSeconds };
  }

  /** The stage's result, read through Temporal again and again while Temporal may be coming back. */
  async function resultOf(handle: WorkflowHandle): Promise<unknown> {
    const deadline = Date.now() + JOB_DEADLINE_MS;
    for (;;) {
      try {
        return await handle.result();
      } catch (e) {
        const name = (e as Error).name;
        if (name === "WorkflowFailedError" || Date.now() > deadline) throw e;
        await sleep(500);
      }
    }
  }

  /** What a creator would find after the stage: exactly one of everything, complete, and served. */
  async function checkStage(journey: Journey, stage: Stage, finished: unknown): Promise<string[]> {
    const problems: string[] = [];
    const { projectId } = journey;
    if (stage === "generate-all") {
      const result = finished as GenerateAllProgress;
      if (result.imagesDone !== SCENE_COUNT || result.voiceoversDone !== SCENE_COUNT) problems.push(`Generate All made ${result.imagesDone} images and ${result.voiceoversDone} voiceovers of ${SCENE_COUNT}: ${JSON.stringify(result.failures)}`);
      const cells = await prisma.storyboardCell.findMany({ where: { storyboard: { projectId } } });
      if (!cells.every((c) => c.imageFileId && c.audioFileId)) problems.push("a scene lacks its image or voiceover");
      for (const kind of ["image", "voiceover"] as const) {
        const count = await prisma.mediaFile.count({ where: { projectId, kind } });
        if (count !== SCENE_COUNT) problems.push(`${count} ${kind} files for ${SCENE_COUNT} scenes`);
      }
      const image = await http(`/api/media/${cells[0]?.imageFileId}`, journey.cookie);
      if (image.status !== 200 || !(await image.arrayBuffer()).byteLength) problems.push(`the first scene's image is not served (${image.status})`);
    } else if (stage === "render") {
      const result = finished as RenderResult;
      const renders = await prisma.renderedVideo.findMany({ where: { projectId, baseVideoId: null } });
      const videos = await prisma.mediaFile.findMany({ where: { projectId, kind: "video" } });
      if (renders.length !== 1 || renders[0]!.status !== "completed") problems.push(`${renders.length} render rows (${renders.map((r) => r.status).join(", ")}), one completed expected`);
      if (videos.length !== 1) problems.push(`${videos.length} video files, one expected`);
      const file = videos.find((v) => v.id === result.mediaFileId);
      if (!file) problems.push("the render's result names no stored video");
      else {
        // as long as the scenes' voiceovers, in the 9:16 720p the drill asked for
        const cells = await prisma.storyboardCell.findMany({ where: { storyboard: { projectId } } });
        const spoken = cells.reduce((sum, c) => sum + (c.audioDuration ?? 0), 0);
        const facts = await probeVideo(mediaFilePath(file));
        if (Math.abs(facts.video.durationSeconds - spoken) > 1 || facts.video.width !== 720 || facts.video.height !== 1280 || !facts.audio) {
          problems.push(`the video is ${facts.video.durationSeconds} s at ${facts.video.width}x${facts.video.height} (${facts.audio ? "with" : "without"} sound) for ${spoken} s of voiceovers`);
        }
      }
      const latest = (await (await http("/api/latest-video", journey.cookie)).json()) as { videoUrl?: string | null };
      if (latest.videoUrl !== result.videoUrl) problems.push(`the Render page shows ${latest.videoUrl}, not ${result.videoUrl}`);
    } else if (stage === "music-mix") {
      // a mix is a video made from the render (baseVideoId); the render itself already carries the track
      const mixes = await prisma.renderedVideo.findMany({ where: { projectId, baseVideoId: { not: null } } });
      if (mixes.length !== 1 || mixes[0]!.status !== "completed" || !mixes[0]!.withMusic) problems.push(`${mixes.length} mixed videos (${mixes.map((m) => m.status).join(", ")}), one expected`);
      const rows = await prisma.renderedVideo.findMany({ where: { projectId } });
      const videos = await prisma.mediaFile.findMany({ where: { projectId, kind: "video" } });
      if (videos.length !== rows.length) problems.push(`${videos.length} video files for ${rows.length} videos`);
      const mixFile = videos.find((v) => v.id === mixes[0]?.mediaFileId);
      if (mixFile && !(await probeVideo(mediaFilePath(mixFile))).audio) problems.push("the mixed video has no sound");
    } else {
      const result = finished as YoutubeUploadResult;
      const atYoutube = [...stack.youtube.videos.values()].filter((v) => v.resource.snippet?.title === journey.title);
      if (atYoutube.length !== 1) problems.push(`${atYoutube.length} videos at YouTube, one expected`);
      else if (atYoutube[0]!.id !== result.videoId) problems.push(`the upload says ${result.videoId}, YouTube has ${atYoutube[0]!.id}`);
      const uploads = await prisma.youtubeUpload.findMany({ where: { projectId } });
      if (uploads.length !== 1 || uploads[0]!.status !== "completed" || uploads[0]!.youtubeVideoId !== result.videoId) {
        problems.push(`upload rows: ${JSON.stringify(uploads.map((u) => ({ status: u.status, videoId: u.youtubeVideoId, error: u.error })))}`);
      }
      const status = (await (await http("/api/youtube/upload-status", journey.cookie)).json()) as { status: string; videoId: string | null };
      if (status.status !== "completed" || status.videoId !== result.videoId) problems.push(`the Upload page says ${JSON.stringify(status)}`);
    }
    problems.push(...(await checkMedia(journey)));
    const left = workFolders();
    if (left.length) problems.push(`work folders left in TMPDIR: ${left.join(", ")}`);
    const orphans = stack.browsers().filter((b) => b.parent === 1);
    if (orphans.length) problems.push(`browsers left running by a worker that is gone: pids ${orphans.map((b) => b.pid).join(", ")}`);
    return problems;
  }

  const STATUS_ROUTE: Record<Stage, string> = {
    "generate-all": "/api/generate-all-content",
    render: "/api/render-progress",
    "music-mix": "/api/render-background-music",
    upload: "/api/youtube/upload-status",
  };

  /** One drill: start `stage` for the journey, kill `part` in the middle, measure the way back, check the result. */
  async function drill(journey: Journey, stage: Stage, part: Part, log: (line: string) => void = () => {}): Promise<DrillResult> {
    const outcome: DrillResult = { part, stage, usableSeconds: null, pipelineSeconds: null, finishedSeconds: null, result: "" };
    stack.youtube.chunkDelayMs = stage === "upload" ? 400 : 0;
    const { handle, answer } = await startStage(journey, stage);
    const moment = await waitForMidStage(stage, handle);
    // the kill must land while the stage runs, or the drill proves nothing
    const before = await handle.describe();
    if (before.status.name !== "RUNNING") {
      outcome.result = `the stage ended (${before.status.name}) before the kill: ${await answer}`;
      return outcome;
    }
    const pid = stack.kill(part);
    const killedAt = performance.now();
    log(`${stage}: killed ${part} (pid ${pid}) at ${moment}`);
    const recovery = measureRecovery(journey, killedAt, STATUS_ROUTE[stage]);
    let problems: string[];
    try {
      const result = await resultOf(handle);
      outcome.finishedSeconds = seconds(killedAt);
      Object.assign(outcome, await recovery);
      // what the creator finds once the stage is done and the app answers again
      problems = await checkStage(journey, stage, result);
    } catch (e) {
      Object.assign(outcome, await recovery);
      problems = [`the stage did not finish: ${innermostMessage(e, String(e))}`];
    }
    const back = await until(`the ${part} back`, async () => stack.pidOf(part), 60_000).catch(() => null);
    if (back === pid) problems.push(`the ${part} was not restarted (pid ${pid} still serves it)`);
    if (outcome.usableSeconds === null) problems.push("the app was not usable again within 120 s");
    else if (outcome.usableSeconds * 1000 > USABLE_WITHIN_MS) problems.push(`usable only after ${outcome.usableSeconds} s`);
    outcome.result = problems.length ? problems.join("; ") : "ok";
    log(`${stage} with ${part} killed: ${outcome.result}`);
    return outcome;
  }

  return {
    startJourney,
    drill,
    async close() {
      await connection.close();
      await prisma.$disconnect();
    },
  };
}

/** The drills as a table: part killed, stage, seconds until usable, until a workflow ran again, until done, result. */
export function drillTable(results: DrillResult[]): string {
  const rows = [
    ["part killed", "stage", "usable after", "pipeline after", "stage done after", "result"],
    ...results.map((r) => [
      r.part,
      r.stage,
      r.usableSeconds === null ? "never" : `${r.usableSeconds.toFixed(1)} s`,
      r.pipelineSeconds === null ? "never" : `${r.pipelineSeconds.toFixed(1)} s`,
      r.finishedSeconds === null ? "never" : `${r.finishedSeconds.toFixed(1)} s`,
      r.result,
    ]),
  ];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
  const line = (row: string[]) => `| ${row.map((cell, i) => cell.padEnd(widths[i]!)).join(" | ")} |`;
  return [line(rows[0]!), `|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`, ...rows.slice(1).map(line)].join("\n");
}
