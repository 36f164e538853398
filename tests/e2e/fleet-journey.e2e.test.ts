// The whole journey on a fleet (issue 30's "Done when"): media in a bucket (E2E_STORAGE=s3) and two worker
// processes (E2E_WORKERS=2) that share no folder with each other or with the web server, as on three machines.
// A creator signs in, creates a 30 s Short, waits for the script, generates the storyboard, Generate All, uploads
// an own image for a scene, generates a music track, renders at 720p, applies the music, generates and approves
// a thumbnail, connects YouTube (the local fake) and uploads. Then what the fleet did is checked from outside:
// the render was cut into chunks and each worker rendered at least one (the identities in the render's Temporal
// history), each worker read media through its own scratch folder and none wrote a media folder, the bucket holds
// exactly the files the database names, and nothing of the project after it is deleted.
// Run: E2E_STORAGE=s3 E2E_WORKERS=2 node scripts/test.mjs e2e tests/e2e/fleet-journey.e2e.test.ts
// (add E2E_WORKER_QUEUES="light,render;heavy,render" for a fleet whose workers serve different queues)
// (skipped when the e2e app is not started that way: it would prove nothing about a fleet).
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { paginateListObjectsV2 } from "@aws-sdk/client-s3";
import { Client, Connection } from "@temporalio/client";
import sharp from "sharp";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

vi.hoisted(() => {
  // the app under test's database (scripts/lib/test-app.mjs), before any app module reads it
  process.env.DATABASE_URL = process.env.E2E_DATABASE_URL;
});

const { prisma } = await import("~/core/db.server");
const { createS3Client } = await import("~/core/storage/s3.server");
const { renderWorkflowId } = await import("../../workflows/shared/render");
const { taskQueueFor } = await import("../../workflows/shared/queue-names");
const { FAKE_CLIENT_ID, FAKE_CLIENT_SECRET } = await import("../fakes/youtube");
const { baseUrl, launchChromium } = await import("../support/browser");
const { signIn } = await import("../support/browser-auth");

const TITLE = "Lighthouses of the North";
const TOPIC = "How lighthouse keepers lived, why the lights flash in patterns, and what replaced them";

/** The worker processes the e2e app started: name, process id (Temporal identity "<pid>@<host>") and DATA_DIR. */
const workers = (process.env.E2E_WORKERS_STARTED ?? "")
  .split(",")
  .filter(Boolean)
  .map((entry) => {
    const [name, rest] = entry.split("=") as [string, string];
    const at = rest.indexOf(":");
    return { name, pid: Number(rest.slice(0, at)), dataDir: rest.slice(at + 1) };
  });
const isFleet = process.env.E2E_STORAGE === "s3" && workers.length >= 2;

let browser: Browser;
let context: BrowserContext;
let page: Page;
let temporal: { connection: Connection; client: Client } | undefined;
const openToast = () => page.locator("li[data-state=open]");

const s3 = isFleet
  ? createS3Client({
      endpoint: process.env.TEST_S3_ENDPOINT!,
      region: process.env.TEST_S3_REGION ?? "us-east-1",
      bucket: process.env.TEST_S3_BUCKET!,
      accessKeyId: process.env.TEST_S3_ACCESS_KEY_ID!,
      secretAccessKey: process.env.TEST_S3_SECRET_ACCESS_KEY!,
      forcePathStyle: true,
    })
  : null;

/** Every object key in the e2e app's bucket under this prefix. */
async function bucketKeys(prefix: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const listed of paginateListObjectsV2({ client: s3! }, { Bucket: process.env.TEST_S3_BUCKET!, Prefix: prefix })) {
    for (const o of listed.Contents ?? []) keys.push(o.Key!);
  }
  return keys.sort();
}

/** Every file under a folder (recursively); none when it does not exist. */
function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
}

function probe(file: string) {
  const out = execFileSync("ffprobe", ["-v", "error", "-count_frames", "-show_entries", "stream=codec_type,codec_name,width,height,nb_read_frames:format=duration", "-of", "json", file]);
  return JSON.parse(String(out)) as {
    streams: { codec_type: string; codec_name: string; width?: number; height?: number; nb_read_frames?: string }[];
    format: { duration: string };
  };
}

beforeAll(async () => {
  if (!isFleet) return;
  browser = await launchChromium();
  context = await browser.newContext({ acceptDownloads: true, viewport: { width: 1280, height: 800 }, timezoneId: "UTC" });
  page = await context.newPage();
  const connection = await Connection.connect({ address: process.env.TEMPORAL_ADDRESS! });
  temporal = { connection, client: new Client({ connection }) };
});
afterAll(async () => {
  await browser?.close();
  await temporal?.connection.close();
  s3?.destroy();
  await prisma.$disconnect();
});

describe.skipIf(!isFleet)("the whole journey on a bucket with two workers that share no folder", () => {
  const email = `fleet-${Date.now()}@example.com`;
  let userId = "";
  let projectId = "";
  let renderedSeconds = 0;
  let musicVideoBytes = 0;

  it("signs in, creates a 30 s Short and waits for its script", { timeout: 180_000 }, async () => {
    await signIn(page, { email, name: "Flo Fleet" });
    userId = (await prisma.user.findUniqueOrThrow({ where: { email } })).id;
    await page.goto(`${baseUrl()}/create`);
    await page.getByLabel("Title").fill(TITLE);
    await page.getByLabel("Topic").fill(TOPIC);
    await page.getByText("9:16 Shorts").click();
    const slider = page.getByRole("slider", { name: "Duration in seconds" });
    await slider.focus();
    await slider.press("Home");
    for (let i = 0; i < 5; i++) await slider.press("ArrowRight"); // 30 s
    expect(await slider.getAttribute("aria-valuenow")).toBe("30");
    // no text model in the tests: the template's sample draft writes the script (issue 48)
    await page.getByText("Sample draft (template)").click();
    await page.getByRole("button", { name: "Create Video" }).click();
    await page.waitForURL(`${baseUrl()}/script`);
    await page.getByRole("button", { name: "Download Script" }).waitFor({ timeout: 150_000 });
    projectId = (await prisma.project.findFirstOrThrow({ where: { userId } })).id;
  });

  it("generates the storyboard and all its images and voiceovers", { timeout: 360_000 }, async () => {
    await page.getByRole("button", { name: "Generate Storyboard" }).click();
    await page.waitForURL(`${baseUrl()}/storyboard`);
    await page.getByRole("article", { name: "Scene 1", exact: true }).waitFor({ timeout: 150_000 });
    const reloaded = page.waitForEvent("load", { timeout: 200_000 });
    await page.getByRole("button", { name: "Generate All Content" }).click();
    await openToast().getByText("All content generated").waitFor({ timeout: 200_000 });
    await reloaded;
    await page.getByText("Every scene has its image and voiceover.").waitFor();
    const scenes = await page.locator("article[aria-label^='Scene ']").count();
    expect(scenes).toBeGreaterThanOrEqual(4);
    expect(await page.locator("article[aria-label^='Scene '] audio").count()).toBe(scenes);
    // every image is served by the web server out of the bucket: it has no copy of its own
    const images = page.locator("article[aria-label^='Scene '] img");
    await expect
      .poll(() => images.evaluateAll((imgs) => imgs.length > 0 && imgs.every((img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth > 0)), { timeout: 30_000 })
      .toBe(true);
  });

  it("replaces Scene 2's image with an upload of the creator's own", { timeout: 90_000 }, async () => {
    const card = page.getByRole("article", { name: "Scene 2", exact: true });
    const before = await card.locator("img").getAttribute("src");
    const orange = await sharp({ create: { width: 900, height: 1600, channels: 3, background: "#ff7a00" } }).png().toBuffer();
    await card.getByLabel("Scene 2: upload an image or clip").setInputFiles({ name: "my-lighthouse.png", mimeType: "image/png", buffer: orange });
    await card.getByText("Your upload").waitFor({ timeout: 60_000 });
    const after = await card.locator("img").getAttribute("src");
    expect(after).toMatch(/^\/api\/media\//);
    expect(after).not.toBe(before);
  });

  it("generates one music track", { timeout: 240_000 }, async () => {
    await page.goto(`${baseUrl()}/music`);
    await page.getByLabel("Music prompt").fill("calm sea shanty on strings");
    await page.getByRole("button", { name: "Generate 1 Track" }).click();
    await openToast().getByText("Music Generation Started").waitFor();
    await page.getByTestId("count-completed").filter({ hasText: /^1$/ }).waitFor({ timeout: 220_000 });
  });

  it("renders at 720p in chunks, each worker rendering at least one, into one MP4 with every frame and its sound", { timeout: 600_000 }, async () => {
    await page.goto(`${baseUrl()}/render`);
    await page.getByRole("heading", { name: "Ready to Render" }).waitFor();
    await page.getByRole("radio", { name: "720p" }).check();
    await page.getByRole("button", { name: "Render Video" }).click();
    await openToast().getByText("Rendering has begun").waitFor();
    await page.getByRole("heading", { name: "Video Rendered Successfully" }).waitFor({ timeout: 580_000 });

    // the render's history: which worker process took each chunk
    const history = await temporal!.client.workflow.getHandle(renderWorkflowId(projectId)).fetchHistory();
    const scheduled = new Map<string, string>();
    const queueOf = new Map<string, string>();
    const chunkIdentities: string[] = [];
    for (const e of history.events ?? []) {
      const s = e.activityTaskScheduledEventAttributes;
      if (s) scheduled.set(String(e.eventId), s.activityType?.name ?? "");
      if (s) queueOf.set(s.activityType?.name ?? "", s.taskQueue?.name ?? "");
      const started = e.activityTaskStartedEventAttributes;
      if (started && scheduled.get(String(started.scheduledEventId)) === "renderVideoChunk") chunkIdentities.push(started.identity ?? "");
    }
    console.log(`render chunks taken by ${chunkIdentities.join(", ")}; workers ${workers.map((w) => `${w.name} pid ${w.pid}`).join(", ")}`);
    expect(chunkIdentities.length, "the render was cut into chunks").toBeGreaterThanOrEqual(2);
    // each part on the queue of its weight (decision 155): the plan light, the chunks render, the sound and the join heavy
    const base = process.env.E2E_TASK_QUEUE!;
    expect(Object.fromEntries(["planRenderChunks", "renderVideoChunk", "mixRenderSound", "joinRenderChunks"].map((a) => [a, queueOf.get(a)]))).toEqual({
      planRenderChunks: taskQueueFor(base, "light"),
      renderVideoChunk: taskQueueFor(base, "render"),
      mixRenderSound: taskQueueFor(base, "heavy"),
      joinRenderChunks: taskQueueFor(base, "heavy"),
    });
    for (const worker of workers) {
      expect(
        chunkIdentities.some((identity) => identity.startsWith(`${worker.pid}@`)),
        `${worker.name} (pid ${worker.pid}) rendered a chunk; chunks went to ${chunkIdentities.join(", ")}`,
      ).toBe(true);
    }

    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Download Video" }).click()]);
    const info = probe((await download.path())!);
    const video = info.streams.find((s) => s.codec_type === "video")!;
    expect(video).toMatchObject({ codec_name: "h264", width: 720, height: 1280 });
    expect(info.streams.find((s) => s.codec_type === "audio")?.codec_name).toBe("aac");
    renderedSeconds = Number(info.format.duration);
    expect(renderedSeconds).toBeGreaterThan(18);
    // the joined chunks hold the whole timeline: 30 frames a second, none lost or doubled at a join
    expect(Math.abs(Number(video.nb_read_frames) - renderedSeconds * 30)).toBeLessThanOrEqual(2);
  });

  it("applies the music at 10 %", { timeout: 240_000 }, async () => {
    await page.goto(`${baseUrl()}/music`);
    const volume = page.getByRole("slider", { name: "Background Music Volume" });
    await volume.focus();
    await volume.press("Home");
    await volume.press("PageUp");
    await page.getByTestId("music-volume").filter({ hasText: "10%" }).waitFor();
    await openToast().getByText("Background Music Added").waitFor({ timeout: 220_000 });
    const section = page.locator("section[aria-labelledby=music-video]");
    const [download] = await Promise.all([page.waitForEvent("download"), section.getByRole("link", { name: "Download Video" }).click()]);
    const file = (await download.path())!;
    const info = probe(file);
    expect(info.streams.find((s) => s.codec_type === "audio")?.codec_name).toBe("aac");
    expect(Number(info.format.duration)).toBeCloseTo(renderedSeconds, 0);
    musicVideoBytes = fs.statSync(file).size;
  });

  it("generates and approves a thumbnail", { timeout: 150_000 }, async () => {
    await page.goto(`${baseUrl()}/thumbnail`);
    await page.getByRole("button", { name: "Scene 1" }).waitFor();
    await page.getByRole("button", { name: "Generate Thumbnail" }).click();
    await openToast().getByText("Thumbnail generated").waitFor({ timeout: 120_000 });
    await page.getByRole("button", { name: "Approve Thumbnail" }).click();
    await page.getByTestId("thumbnail-approved").waitFor();
  });

  it("connects YouTube and uploads the video with its music and thumbnail to the fake", { timeout: 240_000 }, async () => {
    await page.goto(`${baseUrl()}/settings`);
    await page.getByLabel("OAuth Client ID").fill(FAKE_CLIENT_ID);
    await page.getByLabel("OAuth Client Secret", { exact: true }).fill(FAKE_CLIENT_SECRET);
    await page.getByRole("button", { name: "Save OAuth Credentials" }).click();
    await openToast().getByText("OAuth Credentials Saved").waitFor();
    await page.goto(`${baseUrl()}/upload`);
    const popupPromise = context.waitForEvent("page");
    await page.getByRole("button", { name: "Connect YouTube" }).click();
    await (await popupPromise).waitForEvent("close", { timeout: 30_000 });
    await page.getByText("Connected: Fake Creator Channel").waitFor({ timeout: 15_000 });
    await page.getByRole("button", { name: "Write Description and Tags" }).click();
    await expect.poll(() => page.getByLabel("Description").inputValue(), { timeout: 90_000 }).not.toBe("");
    await page.getByRole("button", { name: "Use it" }).click();
    await page.getByRole("button", { name: "Schedule Upload" }).click();
    const id = page.getByTestId("youtube-video-id");
    await id.waitFor({ timeout: 200_000 });
    const videoId = (await id.textContent())!;
    const state = (await (await fetch(`${process.env.E2E_YOUTUBE_FAKE_URL}/__fake/state`)).json()) as {
      videos: { id: string; bytes: number; thumbnail: { bytes: number } | null }[];
    };
    const uploaded = state.videos.find((v) => v.id === videoId);
    // the video with its background music, byte for byte, read out of the bucket by a worker
    expect(uploaded?.bytes).toBe(musicVideoBytes);
    expect(uploaded?.thumbnail?.bytes).toBeGreaterThan(10_000);
  });

  it("kept no media on any process's disk: both workers read through their own scratch copies, none wrote a media folder", () => {
    for (const worker of workers) {
      expect(filesUnder(path.join(worker.dataDir, "media")), `${worker.name} media folder`).toEqual([]);
      expect(filesUnder(path.join(worker.dataDir, "scratch")).length, `${worker.name} scratch copies`).toBeGreaterThan(0);
    }
    expect(filesUnder(path.join(process.env.E2E_DATA_DIR!, "media")), "the web server's media folder").toEqual([]);
  });

  it("the bucket holds exactly the files the database names (and their sized variants), and none of the project's once it is deleted", { timeout: 60_000 }, async () => {
    const named = (await prisma.mediaFile.findMany({ where: { userId }, select: { storageKey: true } })).map((f) => f.storageKey).sort();
    expect(named.length).toBeGreaterThan(10);
    // besides them only the sized variants the storyboard's cards asked for, each beside its image (decision 134)
    const variant = /\.w\d+\.webp$/;
    const keys = await bucketKeys(`${userId}/`);
    expect(keys.filter((key) => !variant.test(key))).toEqual(named);
    const variants = keys.filter((key) => variant.test(key));
    expect(variants.length).toBeGreaterThan(0);
    for (const key of variants) expect(named.some((n) => n.replace(/\.[a-z0-9]+$/, "") === key.replace(variant, "")), `${key} is a variant of a named image`).toBe(true);

    const response = await page.request.delete(`${baseUrl()}/api/projects/${projectId}`);
    expect(response.status()).toBe(200);
    expect(await prisma.project.count({ where: { id: projectId } })).toBe(0);
    const left = await bucketKeys(`${userId}/`);
    expect(left.filter((key) => named.includes(key) || variants.includes(key))).toEqual([]);
    const stillNamed = (await prisma.mediaFile.findMany({ where: { userId }, select: { storageKey: true } })).map((f) => f.storageKey).sort();
    expect(left).toEqual(stillNamed);
  });
});
