// The Upload page in Chromium against the built app, whose Google endpoints are the local fake
// (tests/fakes/youtube-server.ts, started by the test harness): a rendered video is shown, YouTube is connected
// through the popup, the form's counters warn past YouTube's limits, and the upload ends with the video id; its
// progress bar shows only the bytes YouTube acknowledged (no number before there is one).
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FAKE_CLIENT_ID, FAKE_CLIENT_SECRET } from "../fakes/youtube";
import { baseUrl, launchChromium } from "../support/browser";
import { signIn } from "../support/browser-auth";
import { shootBoth } from "../support/screenshots";

// the test process writes the seeded video into the app's own database and media folder
process.env.DATABASE_URL = process.env.E2E_DATABASE_URL;
process.env.DATA_DIR = process.env.E2E_DATA_DIR;
const { prisma } = await import("~/core/db.server");
const { mediaUrl, saveMediaFromPath } = await import("~/core/storage.server");

let browser: Browser;
let context: BrowserContext;
let page: Page;
const email = `uploader-${Date.now()}@example.com`;
const shots = path.join(process.env.E2E_DATA_DIR ?? os.tmpdir(), "screenshots");
const openToast = () => page.locator("li[data-state=open]");
const fakeState = async () =>
  (await (await fetch(`${process.env.E2E_YOUTUBE_FAKE_URL}/__fake/state`)).json()) as {
    videos: { id: string; bytes: number; resource: { snippet: { title: string; tags: string[] }; status: { privacyStatus: string; publishAt?: string } } }[];
  };

/** A 2-second 360x640 H.264 clip with a tone, as the renderer would store it. */
async function seedRenderedVideo(userId: string) {
  const project = await prisma.project.create({ data: { userId, title: "Honeybee Waggle Dance", topic: "How bees share directions", resolution: "shorts", durationSeconds: 30 } });
  await prisma.user.update({ where: { id: userId }, data: { currentProjectId: project.id } });
  await prisma.script.create({
    data: {
      projectId: project.id,
      status: "completed",
      targetWords: 40,
      wordCount: 38,
      text: "Honeybees share directions with a dance. The angle of the waggle run points to the flowers, measured from the sun. The length of the run tells the distance. Sisters follow the dancer and fly straight to the food.",
    },
  });
  const file = path.join(os.tmpdir(), `reelsmith-e2e-${Date.now()}.mp4`);
  // noise, lossless: about 17 MB, so the upload (256 KB chunks) lasts long enough for its bar to be seen moving
  execFileSync("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "nullsrc=size=360x640:rate=25,geq=lum='random(1)*255':cb=128:cr=128", "-f", "lavfi", "-i", "sine=frequency=440", "-t", "2", "-pix_fmt", "yuv420p", "-c:v", "libx264", "-preset", "ultrafast", "-qp", "0", "-c:a", "aac", "-shortest", "-y", file]);
  const media = await saveMediaFromPath({ userId, projectId: project.id, kind: "video", mimeType: "video/mp4", extension: "mp4", sourcePath: file, width: 360, height: 640, durationSeconds: 2 });
  await prisma.renderedVideo.create({
    data: { projectId: project.id, status: "completed", videoUrl: mediaUrl(media), mediaFileId: media.id, width: 360, height: 640, durationSeconds: 2, completedAt: new Date() },
  });
  return { project, bytes: media.bytes };
}

beforeAll(async () => {
  fs.mkdirSync(shots, { recursive: true });
  browser = await launchChromium();
  // a creator in Tokyo: the schedule is read on their wall clock
  context = await browser.newContext({ viewport: { width: 1280, height: 900 }, timezoneId: "Asia/Tokyo" });
  page = await context.newPage();
  await signIn(page, { email, name: "Uma Uploader" });
});
afterAll(async () => {
  await browser?.close();
  await prisma.$disconnect();
});

describe("uploading to YouTube", () => {
  let videoBytes = 0;

  it("shows 'No Video Found' before a video is rendered", async () => {
    await page.goto(`${baseUrl()}/upload`);
    await page.getByRole("heading", { name: "No Video Found" }).waitFor();
    expect(await page.getByRole("link", { name: "Go to Render" }).getAttribute("href")).toBe("/render");
  });

  it("shows the rendered video and the Connect YouTube prompt", async () => {
    const user = await prisma.user.findUniqueOrThrow({ where: { email } });
    ({ bytes: videoBytes } = await seedRenderedVideo(user.id));
    // without the creator's OAuth client, connecting cannot start
    await page.goto(`${baseUrl()}/upload`);
    await page.getByRole("button", { name: "Connect YouTube" }).click();
    await openToast().getByText("Authentication Error").waitFor();
    const saved = await page.request.put(`${baseUrl()}/api/config`, { data: { googleOAuthClientId: FAKE_CLIENT_ID, googleOAuthClientSecret: FAKE_CLIENT_SECRET } });
    expect(saved.status()).toBe(200);
    await page.goto(`${baseUrl()}/upload`);
    await page.getByRole("heading", { name: "Your Video" }).waitFor();
    expect(await page.locator("section[aria-label='Your Video'] video").getAttribute("src")).toMatch(/^\/api\/media\//);
    expect(await page.getByRole("link", { name: "Open in New Tab" }).getAttribute("target")).toBe("_blank");
    await page.getByRole("link", { name: "Upload", exact: true }).waitFor(); // the header's link, now that a video exists
    await page.getByRole("heading", { name: "Platform Upload Guidelines" }).waitFor();
    await page.getByRole("button", { name: "Connect YouTube" }).waitFor();
    await page.screenshot({ path: path.join(shots, "upload-connect.png"), fullPage: true });
  });

  it("connects YouTube through Google's consent popup", async () => {
    const popupPromise = context.waitForEvent("page");
    await page.getByRole("button", { name: "Connect YouTube" }).click();
    const popup = await popupPromise;
    await popup.waitForEvent("close", { timeout: 30_000 });
    await openToast().getByText("YouTube connected").waitFor({ timeout: 15_000 });
    await page.getByRole("heading", { name: "Upload to YouTube" }).waitFor();
    await page.getByText("Connected: Fake Creator Channel").waitFor();
  });

  it("warns past YouTube's limits, then uploads and shows the video id", { timeout: 120_000 }, async () => {
    expect(await page.getByLabel("Title", { exact: true }).inputValue()).toBe("Honeybee Waggle Dance");
    // the description and tags written from the script (the offline writer: no keys)
    await page.getByRole("button", { name: "Write Description and Tags" }).click();
    await expect.poll(() => page.getByLabel("Description").inputValue(), { timeout: 60_000 }).not.toBe("");
    const written = await page.getByLabel("Tags (comma separated)").inputValue();
    expect(written.length).toBeGreaterThan(0);
    expect(written.length).toBeLessThanOrEqual(400);
    await page.getByLabel("Tags (comma separated)").fill("x,".repeat(201));
    await page.getByText("Exceeds YouTube limit").waitFor();
    await page.getByLabel("Tags (comma separated)").fill(" bees , waggle dance,, science ");
    expect(await page.getByText("Exceeds YouTube limit").count()).toBe(0);
    await page.getByLabel("Description").fill("Bees point the way to flowers with a dance.");
    await page.getByText(/^Suggested next date: /).waitFor();
    await page.getByLabel("Category").selectOption("27");
    await page.screenshot({ path: path.join(shots, "upload-form.png"), fullPage: true });

    // every state the bar shows while it uploads, recorded in the page as it changes (issue 47: no made-up figures)
    await page.evaluate(() => {
      const seen: { percent: string | null; valueNow: string | null; detail: string | null }[] = [];
      (window as unknown as { uploadBarStates: typeof seen }).uploadBarStates = seen;
      new MutationObserver(() => {
        const bar = document.querySelector('[role="progressbar"][aria-label="Upload progress"]');
        if (!bar) return;
        const state = { percent: document.querySelector('[data-testid="upload-percent"]')?.textContent ?? null, valueNow: bar.getAttribute("aria-valuenow"), detail: document.querySelector('[data-testid="upload-details"]')?.textContent ?? null };
        const last = seen.at(-1);
        if (!last || last.percent !== state.percent || last.detail !== state.detail || last.valueNow !== state.valueNow) seen.push(state);
      }).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
    });
    // each 256 KB chunk answered after 150 ms: about ten seconds for the 17 MB, so the bar is seen moving
    await fetch(`${process.env.E2E_YOUTUBE_FAKE_URL}/__fake/chunk-delay?ms=150`, { method: "POST" });
    await page.getByRole("button", { name: "Upload to YouTube" }).click();
    await page.getByRole("progressbar", { name: "Upload progress" }).waitFor();
    // the real bytes, once YouTube has acknowledged some: the changed screen, shot mid-upload
    await page.getByText(/^Uploaded [1-9][\d.]* (KB|MB) of [\d.]+ MB$/).waitFor({ timeout: 60_000 });
    await shootBoth(page, "upload-progress");
    const id = page.getByTestId("youtube-video-id");
    await id.waitFor({ timeout: 90_000 });
    await fetch(`${process.env.E2E_YOUTUBE_FAKE_URL}/__fake/chunk-delay?ms=0`, { method: "POST" });
    const states = await page.evaluate(() => (window as unknown as { uploadBarStates: { percent: string | null; valueNow: string | null; detail: string | null }[] }).uploadBarStates);
    const bytes = (text: string) => Number.parseFloat(text) * (text.endsWith("MB") ? 1024 * 1024 : 1024);
    let shown = 0;
    for (const state of states) {
      if (state.percent === null) {
        // no figure yet: no number, and none for assistive technology either
        expect(state.valueNow).toBeNull();
        continue;
      }
      expect(state.valueNow).toBe(state.percent.replace("%", ""));
      if (state.detail === "Setting the thumbnail...") continue;
      // a shown percent is the share of bytes YouTube acknowledged, never a step of a timer
      const match = /^Uploaded (.+) of (.+)$/.exec(state.detail ?? "");
      expect(match, JSON.stringify(state)).not.toBeNull();
      const share = (100 * bytes(match![1]!)) / bytes(match![2]!);
      expect(Math.abs(Number.parseInt(state.percent, 10) - share), JSON.stringify(state)).toBeLessThanOrEqual(1.5);
      shown += 1;
    }
    // the bar moved: more than one figure between the first and the last chunk
    expect(shown).toBeGreaterThan(1);
    const percents = states.filter((s) => s.percent !== null).map((s) => Number.parseInt(s.percent!, 10));
    expect(percents).toEqual([...percents].sort((x, y) => x - y));
    await page.screenshot({ path: path.join(shots, "upload-done.png"), fullPage: true });
    const videoId = (await id.textContent())!;
    expect(videoId).toMatch(/^[\w-]{11}$/);
    expect(await page.getByRole("link", { name: "Watch on YouTube" }).getAttribute("href")).toBe(`https://www.youtube.com/watch?v=${videoId}`);
    await openToast().getByText("Upload complete").waitFor();

    const uploaded = (await fakeState()).videos.find((v) => v.id === videoId)!;
    expect(uploaded.bytes).toBe(videoBytes);
    expect(uploaded.resource.snippet).toMatchObject({ title: "Honeybee Waggle Dance", tags: ["bees", "waggle dance", "science"] });
    expect(uploaded.resource.status.privacyStatus).toBe("public");
  });

  it("schedules a second upload on the suggested date: private until then", { timeout: 120_000 }, async () => {
    await page.getByRole("button", { name: "Use it" }).click();
    const date = await page.getByLabel("Schedule date").inputValue();
    const time = await page.getByLabel("Schedule time").inputValue();
    expect(date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(time).toBe("12:00");
    expect(await page.getByLabel("Privacy").inputValue()).toBe("private");
    const previous = await page.getByTestId("youtube-video-id").textContent();
    await page.getByRole("button", { name: "Schedule Upload" }).click();
    await page.getByTestId("youtube-video-id").filter({ hasNotText: previous! }).waitFor({ timeout: 90_000 });
    const videoId = (await page.getByTestId("youtube-video-id").textContent())!;
    const uploaded = (await fakeState()).videos.find((v) => v.id === videoId)!;
    expect(uploaded.resource.status.privacyStatus).toBe("private");
    // noon in Tokyo on the chosen day is 03:00 UTC that day
    expect(uploaded.resource.status.publishAt).toBe(`${date}T03:00:00.000Z`);
    await page.getByText(/^Scheduled: private until /).waitFor();
  });
});
