// npm run bench:journey: the browser journey (tests/e2e/journey.e2e.test.ts) without the browser, for a 60 s 16:9
// video, timed stage by stage (docs/decisions/120-journey-benchmark-through-the-http-api.md).
// The app is started the way the browser tests start it (scripts/lib/test-app.mjs: the built web server and a
// worker against a fresh database, the YouTube fake, the test servers on TEST_PG_PORT / TEST_TEMPORAL_PORT /
// E2E_PORT), with the offline providers and no keys. Every stage goes through the app's HTTP API with a session
// cookie, as the pages call it; two things do not: the session is made with the session module (the sign-in
// is a browser form, not a stage), and the project with its script run is created with the server functions
// the /create action and /api/generate-script call, because the spec allows 16:9 videos only from 5 minutes and
// this benchmark's subject is a 60 s one. A benchmark, not a test: the figures depend on the machine's load.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { startBenchApp, stopBenchApp } from "./lib/bench-app";

const TITLE = "Why the Sea Is Salty";
const TOPIC = "Where the salt in the oceans comes from: rivers, rocks, volcanoes and vents on the sea floor";
const SECONDS = 60;
const POLL_MS = 1000;

const workDir = fs.mkdtempSync(path.join(os.tmpdir(), "reelsmith-bench-journey-"));
async function cleanup() {
  await stopBenchApp();
  fs.rmSync(workDir, { recursive: true, force: true });
}
process.once("SIGINT", () => void cleanup().then(() => process.exit(130)));

const stages: [string, number][] = [];
async function stage<T>(name: string, run: () => Promise<T>): Promise<T> {
  const started = performance.now();
  process.stdout.write(`  ${name.padEnd(34)} `);
  const result = await run();
  const seconds = (performance.now() - started) / 1000;
  stages.push([name, seconds]);
  console.log(`${seconds.toFixed(1).padStart(7)} s`);
  return result;
}

async function until<T>(what: string, read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 15 * 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not done after ${timeoutMs / 1000} s; last answer ${JSON.stringify(value).slice(0, 500)}`);
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

function probe(file: string) {
  const out = execFileSync("ffprobe", ["-v", "error", "-show_entries", "stream=codec_type,codec_name,width,height:format=duration", "-of", "json", file]);
  return JSON.parse(String(out)) as { streams: { codec_type: string; codec_name: string; width?: number; height?: number }[]; format: { duration: string } };
}

try {
  console.log("starting PostgreSQL, Temporal, the YouTube fake and the built app with its worker (not timed)...");
  const app = await startBenchApp();
  const base = app.baseUrl;
  const { prisma } = await import("~/server/db.server");
  const { createSession } = await import("~/server/session.server");
  const { createProject } = await import("~/server/projects.server");
  const { startScriptGeneration } = await import("~/server/script.server");
  const { FAKE_CLIENT_ID, FAKE_CLIENT_SECRET } = await import("../tests/fakes/youtube");

  const user = await prisma.user.create({ data: { email: `bench-${Date.now()}@example.com`, name: "Bench Journey" } });
  const cookies = new Map<string, string>();
  for (const c of [await createSession(user.id, { secure: false })]) cookies.set(c.split("=")[0]!, c.split(";")[0]!);
  const cookieHeader = () => [...cookies.values()].join("; ");
  async function call<T = Record<string, unknown>>(method: string, url: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = { Cookie: cookieHeader(), Origin: base };
    let payload: BodyInit | undefined;
    if (body instanceof FormData) payload = body;
    else if (body !== undefined) {
      headers["Content-Type"] = "application/json";
      payload = JSON.stringify(body);
    }
    const response = await fetch(`${base}${url}`, { method, headers, body: payload, redirect: "manual" });
    for (const c of response.headers.getSetCookie()) cookies.set(c.split("=")[0]!, c.split(";")[0]!);
    const text = await response.text();
    if (response.status >= 400) throw new Error(`${method} ${url}: HTTP ${response.status} ${text.slice(0, 300)}`);
    return (text ? JSON.parse(text) : {}) as T;
  }
  async function download(url: string, name: string): Promise<string> {
    const response = await fetch(`${base}${url}`, { headers: { Cookie: cookieHeader() } });
    if (!response.ok) throw new Error(`GET ${url}: HTTP ${response.status}`);
    const file = path.join(workDir, name);
    fs.writeFileSync(file, Buffer.from(await response.arrayBuffer()));
    return file;
  }

  console.log(`\nthe journey for a ${SECONDS} s 16:9 video, offline providers, through ${base}:`);
  const started = performance.now();

  const script = await stage("script", async () => {
    const project = await createProject(user.id, { title: TITLE, topic: TOPIC, resolution: "landscape", durationSeconds: SECONDS });
    await prisma.user.update({ where: { id: user.id }, data: { currentProjectId: project.id } });
    await startScriptGeneration(user.id, project, { title: TITLE, topic: TOPIC, resolution: "16:9", duration: SECONDS });
    const status = await until("script", () => call<{ status: string; script?: string; error?: string }>("GET", "/api/script-status"), (s) => s.status === "completed" || s.status === "error");
    if (status.status !== "completed") throw new Error(`the script failed: ${status.error}`);
    return status.script!;
  });

  const cellCount = await stage("storyboard", async () => {
    await call("POST", "/api/generate-storyboards", {});
    const status = await until("storyboard", () => call<{ status: string; cellCount: number }>("GET", "/api/storyboard-status"), (s) => s.status === "completed" || s.status === "error");
    if (status.status !== "completed") throw new Error(`the storyboard failed: ${JSON.stringify(status)}`);
    return status.cellCount;
  });

  type Cells = { storyboardCells: { imageUrl?: string | null; audioUrl?: string | null }[] };
  await stage(`generate all (${cellCount} scenes)`, async () => {
    await call("POST", "/api/generate-all-content");
    const cells = await until(
      "generate all",
      () => call<Cells>("GET", "/api/storyboards"),
      (c) => c.storyboardCells.length === cellCount && c.storyboardCells.every((cell) => cell.imageUrl && cell.audioUrl),
    );
    return cells;
  });

  await stage("scene 2 image replaced by an upload", async () => {
    const png = await sharp({ create: { width: 1920, height: 1080, channels: 3, background: "#1d7bd8" } }).png().toBuffer();
    const form = new FormData();
    form.set("cellIndex", "1");
    form.set("file", new Blob([new Uint8Array(png)], { type: "image/png" }), "my-photo.png");
    await call("POST", "/api/scene-media", form);
  });

  await stage("one music track", async () => {
    await call("POST", "/api/music-tracks/generate", { prompt: "calm ocean ambience with soft piano", trackCount: 1 });
    const tracks = await until("music", () => call<{ status: string; error?: string }[]>("GET", "/api/music-tracks"), (t) => t.length === 1 && (t[0]!.status === "completed" || t[0]!.status === "error"));
    if (tracks[0]!.status !== "completed") throw new Error(`the music track failed: ${tracks[0]!.error}`);
  });

  const rendered = await stage("render 1920x1080", async () => {
    await call("POST", "/api/render-video", {});
    await until("render", () => call<{ isActive: boolean; error?: string | null }>("GET", "/api/render-progress"), (p) => !p.isActive, 30 * 60_000);
    const latest = await call<{ videoUrl: string | null }>("GET", "/api/latest-video");
    if (!latest.videoUrl) throw new Error("the render made no video");
    return latest.videoUrl;
  });

  const mixed = await stage("music mixed in at 10 %", async () => {
    const result = await call<{ videoUrl: string }>("POST", "/api/render-background-music", { volumeLevel: 10 });
    return result.videoUrl;
  });

  await stage("thumbnail generated and approved", async () => {
    const workspace = await call<{ images: { cellIndex: number; imageUrl: string }[] }>("GET", "/api/thumbnails");
    const image = workspace.images[0]!;
    const made = await call<{ thumbnailUrl: string }>("POST", "/api/generate-thumbnail", { imageUrl: image.imageUrl, cellIndex: image.cellIndex, title: TITLE });
    await call("POST", "/api/approve-thumbnail", { thumbnailUrl: made.thumbnailUrl });
  });

  await stage("YouTube connected", async () => {
    await call("PUT", "/api/config", { googleOAuthClientId: FAKE_CLIENT_ID, googleOAuthClientSecret: FAKE_CLIENT_SECRET });
    const { authUrl } = await call<{ authUrl: string }>("GET", "/api/youtube/oauth/authorize");
    const consent = await fetch(authUrl, { redirect: "manual" });
    const back = new URL(consent.headers.get("location")!);
    const callback = await fetch(`${base}${back.pathname}${back.search}`, { headers: { Cookie: cookieHeader() } });
    if (callback.status !== 200) throw new Error(`the OAuth callback answered ${callback.status}: ${(await callback.text()).slice(0, 300)}`);
  });

  const publishAt = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate() + 2, 12)).toISOString();
  const upload = await stage("metadata written, scheduled upload", async () => {
    const metadata = await call<{ description: string; tags: string[] }>("POST", "/api/generate-metadata", { script, title: TITLE });
    return call<{ videoId: string }>("POST", "/api/youtube/upload", {
      title: TITLE,
      description: metadata.description,
      tags: metadata.tags,
      privacyStatus: "private",
      categoryId: "27",
      publishAt,
    });
  });
  const total = (performance.now() - started) / 1000;
  console.log(`  ${"total".padEnd(34)} ${total.toFixed(1).padStart(7)} s`);

  const renderFacts = probe(await download(rendered, "render.mp4"));
  const mixedFacts = probe(await download(mixed, "mixed.mp4"));
  const video = renderFacts.streams.find((s) => s.codec_type === "video");
  console.log(
    `\nrender: ${video?.width}x${video?.height} ${video?.codec_name}, ${Number(renderFacts.format.duration).toFixed(1)} s` +
      `; with music: ${Number(mixedFacts.format.duration).toFixed(1)} s, audio ${mixedFacts.streams.find((s) => s.codec_type === "audio")?.codec_name}` +
      `; YouTube (fake) video id ${upload.videoId}, private until ${publishAt}`,
  );
  console.log(`machine load (1/5/15 min): ${os.loadavg().map((l) => l.toFixed(1)).join(" / ")} on ${os.cpus().length} cores`);
} catch (e) {
  console.error(`\nbench:journey failed: ${e instanceof Error ? e.message : String(e)}`);
  process.exitCode = 1;
} finally {
  await cleanup();
}
process.exit(process.exitCode ?? 0);
