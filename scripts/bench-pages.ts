// npm run bench:pages: Lighthouse (mobile, its default simulated throttling) against the built app, for the
// landing page, /create, /storyboard with scenes and /render with a rendered video, and round 4's pages with their
// content (tests/fixtures/pages-content.ts): /channels, a channel's calendar and kit, /batches with two batches, a
// video's Shorts and versions page with one of each, and the owner's /settings/operations; prints performance,
// accessibility, best practices, SEO, the largest contentful paint and the bytes sent (issue 36, decision 134).
// The app is started the way the browser tests start it (scripts/lib/test-app.mjs: the built web server and a
// worker against a fresh database, on TEST_PG_PORT / TEST_TEMPORAL_PORT / E2E_PORT). The signed-in pages are
// measured with a session cookie made by the session module; the project is seeded like the render tests'.
// BENCH_PAGES_RUNS runs per page (default 3; the median run by performance is printed), BENCH_PAGES_ONLY a
// comma-separated list of the pages to measure, by route (say "/create,/channels/:id"; default all), CHROMIUM_PATH the
// browser (default /usr/bin/chromium), BENCH_PAGES_REPORTS a folder for each run's full Lighthouse report (JSON).
// A benchmark, not a test: Lighthouse's simulation scales with the machine's load, so on a shared machine run it
// under the shared lock (flock /tmp/reelsmith-heavy.lock ...), on ports of its own (TEST_PG_PORT, E2E_PORT...).
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createRequire } from "node:module";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { ensureBuild } from "./lib/build.mjs";
import { stopChildren } from "./lib/processes.mjs";
import { startAppForTests } from "./lib/test-app.mjs";
import { startTestServers } from "./lib/test-servers.mjs";

const RUNS = Math.max(1, Number(process.env.BENCH_PAGES_RUNS ?? 3));
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const REPORTS = process.env.BENCH_PAGES_REPORTS;
const ONLY = process.env.BENCH_PAGES_ONLY?.split(",").map((p) => p.trim()).filter(Boolean);
const CATEGORIES = ["performance", "accessibility", "best-practices", "seo"] as const;
const LIGHTHOUSE_VERSION = (createRequire(import.meta.url)("lighthouse/package.json") as { version: string }).version;

type PageResult = { scores: Record<(typeof CATEGORIES)[number], number>; lcpMs: number; fcpMs: number; tbtMs: number; cls: number; kib: number; scriptKib: number; benchmarkIndex: number };

const workDir = fs.mkdtempSync(path.join(os.tmpdir(), "reelsmith-bench-pages-"));
let servers: Awaited<ReturnType<typeof startTestServers>> | undefined;
let chrome: chromeLauncher.LaunchedChrome | undefined;
async function cleanup() {
  await chrome?.kill();
  await stopChildren(5000).catch(() => {});
  await servers?.stop().catch(() => {});
  fs.rmSync(workDir, { recursive: true, force: true });
}
process.once("SIGINT", () => void cleanup().then(() => process.exit(130)));

/** One Lighthouse run of `url` (mobile defaults) with the given cookie. */
async function measure(url: string, cookie: string | null): Promise<PageResult> {
  const result = await lighthouse(url, {
    port: chrome!.port,
    output: "json",
    logLevel: "error",
    onlyCategories: [...CATEGORIES],
    ...(cookie ? { extraHeaders: { Cookie: cookie } } : {}),
  });
  const lhr = result?.lhr;
  if (!lhr) throw new Error(`Lighthouse gave no result for ${url}`);
  if (lhr.runtimeError) throw new Error(`Lighthouse: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
  if (lhr.finalDisplayedUrl !== url) throw new Error(`${url} ended at ${lhr.finalDisplayedUrl} (signed out?)`);
  if (REPORTS) {
    fs.mkdirSync(REPORTS, { recursive: true });
    const name = new URL(url).pathname.replace(/\W+/g, "-").replace(/^-|-$/g, "") || "landing";
    fs.writeFileSync(path.join(REPORTS, `${name}-${Date.now()}.json`), JSON.stringify(lhr));
  }
  const score = (id: (typeof CATEGORIES)[number]) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
  const numeric = (id: string) => lhr.audits[id]?.numericValue ?? NaN;
  const requests = (lhr.audits["network-requests"]?.details as { items?: { transferSize?: number; resourceType?: string }[] } | undefined)?.items ?? [];
  const bytes = (filter: (r: { resourceType?: string }) => boolean) => requests.filter(filter).reduce((sum, r) => sum + (r.transferSize ?? 0), 0) / 1024;
  return {
    scores: { performance: score("performance"), accessibility: score("accessibility"), "best-practices": score("best-practices"), seo: score("seo") },
    lcpMs: numeric("largest-contentful-paint"),
    fcpMs: numeric("first-contentful-paint"),
    tbtMs: numeric("total-blocking-time"),
    cls: numeric("cumulative-layout-shift"),
    kib: bytes(() => true),
    scriptKib: bytes((r) => r.resourceType === "Script"),
    benchmarkIndex: lhr.environment.benchmarkIndex,
  };
}

/** Lighthouse now and then fails to record a trace (NO_NAVSTART, NO_FCP under load): such a run is made again, twice at most. */
async function measureWithRetry(url: string, cookie: string | null): Promise<PageResult> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await measure(url, cookie);
    } catch (e) {
      if (attempt === 3 || !/Lighthouse: NO_/.test(e instanceof Error ? e.message : "")) throw e;
      console.log(`  (${url}: ${e instanceof Error ? e.message.split(" ")[1] : e}, measured again)`);
    }
  }
}

/** A small H.264 video standing for a finished render. */
function sampleVideo(): Buffer {
  const file = path.join(workDir, "render.mp4");
  execFileSync("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=1280x720:rate=30:duration=4", "-pix_fmt", "yuv420p", "-c:v", "libx264", "-preset", "ultrafast", "-movflags", "+faststart", "-y", file]);
  return fs.readFileSync(file);
}

try {
  console.log("starting PostgreSQL, Temporal and the built app (not measured)...");
  ensureBuild();
  servers = await startTestServers();
  const app = await startAppForTests(servers.env);
  const base = app.baseUrl;
  Object.assign(process.env, { DATABASE_URL: process.env.E2E_DATABASE_URL, DATA_DIR: process.env.E2E_DATA_DIR });
  const { prisma } = await import("~/core/db.server");
  const { createSession } = await import("~/server/session.server");
  const { mediaUrl, saveMedia } = await import("~/core/storage.server");
  const { seedRenderableProject } = await import("../tests/fixtures/render-project");
  const { seedBatches, seedChannelWeek } = await import("../tests/fixtures/pages-content");

  // A creator with a six-scene project, its images and voiceovers, and one finished render.
  const user = await prisma.user.create({ data: { email: `bench-pages-${Date.now()}@example.com`, name: "Bench Pages" } });
  const cookie = (await createSession(user.id, { secure: false })).split(";")[0]!;
  const { projectId } = await seedRenderableProject({ userId: user.id, sceneSeconds: [3, 3, 3, 3, 3, 3], title: "Why the Sea Is Salty" });
  const video = await saveMedia({ userId: user.id, projectId, kind: "video", data: sampleVideo(), mimeType: "video/mp4", extension: "mp4", width: 1280, height: 720, durationSeconds: 4 });
  await prisma.renderedVideo.create({
    data: { projectId, status: "completed", videoUrl: mediaUrl(video), mediaFileId: video.id, width: 1280, height: 720, durationSeconds: 4, completedAt: new Date() },
  });

  // round 4's pages: a Short and a Spanish version made by the app (as the page's buttons make them), a channel with
  // three weeks of calendar, two batches; the Operations page as the owner (OWNER_EMAIL of the test app)
  const made = async (what: string, body: unknown) => {
    const res = await fetch(`${base}/api/projects/${projectId}/${what}`, { method: "POST", headers: { Cookie: cookie, "Content-Type": "application/json" }, body: JSON.stringify(body) });
    if (!res.ok) throw new Error(`POST ${what}: ${res.status} ${await res.text()}`);
  };
  await made("shorts", { fromScene: 0, toScene: 2 });
  await made("versions", { language: "es", voiceovers: false });
  const { channelId } = await seedChannelWeek({ userId: user.id, name: "Salt and Sea", projectId });
  await seedBatches({ userId: user.id });
  const owner = await prisma.user.upsert({ where: { email: process.env.E2E_OWNER_EMAIL ?? "owner@reelsmith.test" }, create: { email: process.env.E2E_OWNER_EMAIL ?? "owner@reelsmith.test", name: "Bench Owner" }, update: {} });
  const ownerCookie = (await createSession(owner.id, { secure: false })).split(";")[0]!;

  chrome = await chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: ["--headless=new", "--no-sandbox", "--disable-gpu"] });
  // [name, route (what BENCH_PAGES_ONLY names), path, session cookie]
  const pages: [string, string, string, string | null][] = [
    ["landing (signed out)", "/", "/", null],
    ["/create", "/create", "/create", cookie],
    ["/storyboard (6 scenes)", "/storyboard", "/storyboard", cookie],
    ["/render (1 video)", "/render", "/render", cookie],
    ["/channels (1 channel)", "/channels", "/channels", cookie],
    ["/channels/:id (3 weeks)", "/channels/:id", `/channels/${channelId}`, cookie],
    ["/batches (2 batches)", "/batches", "/batches", cookie],
    ["/projects/:id/outputs", "/projects/:id/outputs", `/projects/${projectId}/outputs`, cookie],
    ["/settings/operations", "/settings/operations", "/settings/operations", ownerCookie],
  ];
  console.log(`\nLighthouse ${LIGHTHOUSE_VERSION}, mobile, simulated throttling; ${RUNS} run(s) per page, the median by performance:`);
  console.log(`${"page".padEnd(24)} ${"perf".padStart(4)} ${"a11y".padStart(4)} ${"bp".padStart(4)} ${"seo".padStart(4)} ${"LCP".padStart(7)} ${"FCP".padStart(7)} ${"TBT".padStart(6)} ${"CLS".padStart(5)} ${"sent".padStart(8)} ${"of it JS".padStart(8)}  runs (perf)`);
  const failures: string[] = [];
  const benchmarkIndexes: number[] = [];
  for (const [name, , pathname, pageCookie] of pages.filter(([, route]) => !ONLY || ONLY.includes(route))) {
    const runs: PageResult[] = [];
    for (let i = 0; i < RUNS; i++) runs.push(await measureWithRetry(`${base}${pathname}`, pageCookie));
    benchmarkIndexes.push(...runs.map((x) => x.benchmarkIndex));
    const sorted = [...runs].sort((a, b) => a.scores.performance - b.scores.performance);
    const r = sorted[Math.floor((sorted.length - 1) / 2)]!;
    console.log(
      `${name.padEnd(24)} ${String(r.scores.performance).padStart(4)} ${String(r.scores.accessibility).padStart(4)} ${String(r.scores["best-practices"]).padStart(4)} ${String(r.scores.seo).padStart(4)}` +
        ` ${(r.lcpMs / 1000).toFixed(2).padStart(5)} s ${(r.fcpMs / 1000).toFixed(2).padStart(5)} s ${Math.round(r.tbtMs).toString().padStart(3)} ms ${r.cls.toFixed(2).padStart(5)}` +
        ` ${r.kib.toFixed(0).padStart(4)} KiB ${r.scriptKib.toFixed(0).padStart(4)} KiB  ${runs.map((x) => x.scores.performance).join(" ")}`,
    );
    if (r.scores.performance < 95) failures.push(`${name}: performance ${r.scores.performance} (goal 95)`);
    if (r.scores.accessibility < 100 || r.scores["best-practices"] < 100 || r.scores.seo < 100) failures.push(`${name}: accessibility/best practices/SEO below 100`);
  }
  console.log(`\nLighthouse's CPU benchmark index of this machine: ${benchmarkIndexes.map((b) => Math.round(b)).join(", ")}`);
  console.log(`machine: ${os.cpus().length} cores, load (1/5/15 min) ${os.loadavg().map((l) => l.toFixed(1)).join(" / ")}`);
  console.log(failures.length ? `below the goals (issue 36):\n  ${failures.join("\n  ")}` : "every page meets the goals (performance >= 95; the rest 100)");
} catch (e) {
  console.error(`\nbench:pages failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
  process.exitCode = 1;
} finally {
  await cleanup();
}
process.exit(process.exitCode ?? 0);
