// Issue 37 in Chromium against the built app (Google's endpoints are the local YouTube fake): the Render page shows
// the delivered video's measured loudness and its caption downloads; the Upload page shows the pre-flight list; a
// too-long title and a past publish time block the upload with their reasons (the server refuses them too); once
// fixed, the fake receives the video, the thumbnail and a caption track whose text is the voiceovers'. Screenshots
// of both pages at 1280x800 and 390x844.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FAKE_CLIENT_ID, FAKE_CLIENT_SECRET, type FakeVideo } from "../fakes/youtube";
import { baseUrl, launchChromium } from "../support/browser";
import { signIn } from "../support/browser-auth";
import { shootBoth } from "../support/screenshots";

// the test process writes the seeded project into the app's own database and media folder
process.env.DATABASE_URL = process.env.E2E_DATABASE_URL;
process.env.DATA_DIR = process.env.E2E_DATA_DIR;
const { prisma } = await import("~/core/db.server");
const { mediaUrl, saveMedia, saveMediaFromPath } = await import("~/core/storage.server");
const { captionTrackCues } = await import("~/lib/caption-track");
const { normaliseLoudness, storedLoudness } = await import("../../workflows/engine/loudness");
const { chaptersInDescription, validateChapters } = await import("~/lib/chapters");

let browser: Browser;
let context: BrowserContext;
let page: Page;
const email = `publisher-${Date.now()}@example.com`;
const fakeState = async () => (await (await fetch(`${process.env.E2E_YOUTUBE_FAKE_URL}/__fake/state`)).json()) as { videos: FakeVideo[] };

const VOICEOVERS = [
  "Honeybees share directions with a dance.",
  "The angle of the waggle run points to the flowers, measured from the sun.",
  "The length of the run tells the distance. Sisters follow the dancer!",
];
const SECONDS = [2.2, 3.4, 3.6];

/** A rendered 16:9 project: script, scenes with voiceovers, the video brought to -14 LUFS, its caption cues, an approved thumbnail. */
async function seedPublishableProject(userId: string) {
  const project = await prisma.project.create({ data: { userId, title: "Honeybee Waggle Dance", topic: "How bees share directions", resolution: "landscape", durationSeconds: 30 } });
  await prisma.user.update({ where: { id: userId }, data: { currentProjectId: project.id } });
  await prisma.script.create({ data: { projectId: project.id, status: "completed", targetWords: 40, wordCount: 38, text: VOICEOVERS.join(" ") } });
  const storyboard = await prisma.storyboard.create({ data: { projectId: project.id, title: project.title, status: "completed" } });
  for (const [i, text] of VOICEOVERS.entries()) {
    await prisma.storyboardCell.create({ data: { storyboardId: storyboard.id, cellIndex: i, imagePrompt: "bees", voiceoverText: text, estimatedDuration: SECONDS[i]!, audioDuration: SECONDS[i]! } });
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "reelsmith-e2e-publish-"));
  const raw = path.join(dir, "raw.mp4");
  const total = SECONDS.reduce((a, b) => a + b + 0.3, 0);
  // a quiet render, as the issue found them (a soft tone): the save step's function brings it to the target
  execFileSync("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=1280x720:rate=30", "-f", "lavfi", "-i", "sine=frequency=220,volume=0.05", "-t", String(total), "-pix_fmt", "yuv420p", "-c:v", "libx264", "-preset", "ultrafast", "-c:a", "aac", "-y", raw]);
  const delivered = path.join(dir, "delivered.mp4");
  const loudness = storedLoudness(await normaliseLoudness(raw, delivered));
  const media = await saveMediaFromPath({ userId, projectId: project.id, kind: "video", mimeType: "video/mp4", extension: "mp4", sourcePath: delivered, width: 1280, height: 720, durationSeconds: total });
  const cues = captionTrackCues(
    VOICEOVERS.map((text, i) => ({ text, audioDurationInSeconds: SECONDS[i]! })),
    30,
  );
  await prisma.renderedVideo.create({
    data: { projectId: project.id, status: "completed", videoUrl: mediaUrl(media), mediaFileId: media.id, width: 1280, height: 720, durationSeconds: total, completedAt: new Date(), renderer: "fast", ...loudness, captionCues: cues },
  });
  const png = await sharp({ create: { width: 1280, height: 720, channels: 3, background: "#334155" } }).png().toBuffer();
  const image = await saveMedia({ userId, projectId: project.id, kind: "thumbnail", mimeType: "image/png", extension: "png", data: png, width: 1280, height: 720 });
  await prisma.thumbnail.create({ data: { projectId: project.id, thumbnailUrl: mediaUrl(image), mediaFileId: image.id, title: "Bees", fontFamily: "Bebas Neue", fontSize: 72, approved: true } });
  fs.rmSync(dir, { recursive: true, force: true });
  return { project, bytes: media.bytes, loudness, thumbnailBytes: png.length };
}

/** Both sizes into the run's screenshot folder (tests/support/screenshots.ts), printed at the end of `npm test`. */
async function screenshots(name: string) {
  await shootBoth(page, `publish-ready-${name}`);
}

let seeded: Awaited<ReturnType<typeof seedPublishableProject>>;

beforeAll(async () => {
  browser = await launchChromium();
  context = await browser.newContext({ viewport: { width: 1280, height: 800 }, timezoneId: "Europe/Paris" });
  page = await context.newPage();
  await signIn(page, { email, name: "Pia Publisher" });
  const user = await prisma.user.findUniqueOrThrow({ where: { email } });
  seeded = await seedPublishableProject(user.id);
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await prisma.$disconnect();
});

describe("a video made ready for YouTube", () => {
  it("the Render page shows the measured loudness and the caption track's downloads", async () => {
    expect(seeded.loudness.loudnessLufs).toBeGreaterThanOrEqual(-15);
    expect(seeded.loudness.loudnessLufs).toBeLessThanOrEqual(-13);
    await page.goto(`${baseUrl()}/render`);
    await page.getByRole("heading", { name: "Video Rendered Successfully" }).waitFor();
    const fact = page.getByTestId("video-loudness");
    await fact.waitFor();
    expect(await fact.textContent()).toContain(`Loudness: ${seeded.loudness.loudnessLufs!.toFixed(1)} LUFS, true peak ${seeded.loudness.truePeakDbtp!.toFixed(1)} dBTP`);
    const srtHref = (await page.getByRole("link", { name: "Download SRT" }).getAttribute("href"))!;
    const vttHref = (await page.getByRole("link", { name: "Download WebVTT" }).getAttribute("href"))!;
    const srt = await page.request.get(`${baseUrl()}${srtHref}`);
    expect(srt.status()).toBe(200);
    expect(srt.headers()["content-disposition"]).toBe('attachment; filename="honeybee_waggle_dance.srt"');
    expect(await srt.text()).toMatch(/^1\n00:00:00,\d{3} --> 00:00:0\d,\d{3}\nHoneybees share directions with a dance\.\n/);
    const vtt = await page.request.get(`${baseUrl()}${vttHref}`);
    expect(await vtt.text()).toMatch(/^WEBVTT\n\n00:00:00\.\d{3} --> /);
    // another creator's browser gets nothing
    const stranger = await browser.newContext();
    const strangerPage = await stranger.newPage();
    await signIn(strangerPage, { email: `stranger-${Date.now()}@example.com`, name: "Stranger" });
    expect((await strangerPage.request.get(`${baseUrl()}${srtHref}`)).status()).toBe(404);
    await stranger.close();
    await screenshots("render-loudness-captions");
  });

  it("connects YouTube through Google's consent popup", async () => {
    const saved = await page.request.put(`${baseUrl()}/api/config`, { data: { googleOAuthClientId: FAKE_CLIENT_ID, googleOAuthClientSecret: FAKE_CLIENT_SECRET } });
    expect(saved.status()).toBe(200);
    await page.goto(`${baseUrl()}/upload`);
    const popupPromise = context.waitForEvent("page");
    await page.getByRole("button", { name: "Connect YouTube" }).click();
    const popup = await popupPromise;
    await popup.waitForEvent("close", { timeout: 30_000 });
    await page.getByRole("heading", { name: "Upload to YouTube" }).waitFor({ timeout: 15_000 });
  });

  it("shows the pre-flight list, and blocks a too-long title and a past publish time with their reasons", { timeout: 120_000 }, async () => {
    const list = page.getByRole("region", { name: "Pre-flight check" });
    await list.waitFor();
    for (const label of ["Loudness and true peak", "Duration", "Resolution and aspect", "Title length", "Description size", "Tags length", "Thumbnail size and type", "Captions attached", "Chapters valid", "Publish time in the future"]) {
      await list.getByText(label, { exact: true }).waitFor();
    }
    expect(await page.getByTestId("preflight-loudness").getAttribute("data-status")).toBe("pass");
    expect(await page.getByTestId("preflight-captions").textContent()).toContain("sent as a caption track");
    expect(await page.getByTestId("preflight-thumbnail").getAttribute("data-status")).toBe("pass");
    await page.getByRole("link", { name: "Download SRT" }).waitFor();

    // a title over 100 characters
    const longTitle = `Honeybee Waggle Dance: ${"how bees point the way ".repeat(5)}`.trim();
    await page.getByLabel("Title", { exact: true }).fill(longTitle);
    const blocked = page.getByTestId("preflight-blocked");
    await blocked.getByText(`The title is ${longTitle.length} characters; YouTube takes at most 100.`).waitFor();
    // Upload says why it will not start, and nothing is sent
    const videosBefore = (await fakeState()).videos.length;
    await page.getByRole("button", { name: "Upload to YouTube" }).click();
    const toast = page.locator("li[data-state=open]").filter({ hasText: "Upload blocked" });
    await toast.getByText(`The title is ${longTitle.length} characters; YouTube takes at most 100.`).waitFor();

    // a publish time in the past (yesterday, typed into the date field)
    await page.getByLabel("Schedule publishing").check();
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    await page.getByLabel("Schedule date").fill(yesterday);
    await page.getByLabel("Schedule time").fill("09:00");
    await blocked.getByText("The scheduled time is in the past. Pick a later date or time.").waitFor();
    expect(await page.getByTestId("preflight-publish-time").getAttribute("data-status")).toBe("fail");
    await page.getByRole("button", { name: "Schedule Upload" }).click();
    await page
      .locator("li[data-state=open]")
      .filter({ hasText: "The scheduled time is in the past. Pick a later date or time." })
      .first()
      .waitFor();
    expect((await fakeState()).videos.length).toBe(videosBefore);
    await screenshots("upload-preflight-blocked");

    // the server refuses the same upload, with the same reasons
    const refused = await page.request.post(`${baseUrl()}/api/youtube/upload`, {
      data: { title: "Honeybee Waggle Dance", description: "", tags: [], privacyStatus: "private", categoryId: "27", publishAt: new Date(Date.now() - 3_600_000).toISOString() },
    });
    expect(refused.status()).toBe(400);
    expect(((await refused.json()) as { message: string }).message).toContain("The scheduled time must be in the future.");

    // each fix is one click away
    await page.getByRole("button", { name: "Shorten to 100 characters" }).click();
    expect((await page.getByLabel("Title", { exact: true }).inputValue()).length).toBeLessThanOrEqual(100);
    await page.getByRole("button", { name: "Publish on upload instead" }).click();
    await expect.poll(() => page.getByTestId("preflight-blocked").count()).toBe(0);
    await page.getByLabel("Title", { exact: true }).fill("Honeybee Waggle Dance");
  });

  it("uploads the video, its thumbnail and a caption track whose text is the voiceovers", { timeout: 150_000 }, async () => {
    await page.getByLabel("Description").fill("Bees point the way to flowers with a dance.");
    await page.getByLabel("Tags (comma separated)").fill("bees, waggle dance");
    await page.getByLabel("Category").selectOption("27");
    await screenshots("upload-preflight-ready");
    await page.getByRole("button", { name: "Upload to YouTube" }).click();
    const id = page.getByTestId("youtube-video-id");
    await id.waitFor({ timeout: 120_000 });
    const videoId = (await id.textContent())!;
    await page.getByTestId("captions-sent").waitFor({ timeout: 30_000 });

    const uploaded = (await fakeState()).videos.find((v) => v.id === videoId)!;
    expect(uploaded.bytes).toBe(seeded.bytes);
    expect(uploaded.thumbnail).toEqual({ bytes: seeded.thumbnailBytes, contentType: "image/png" });
    expect(uploaded.captions).toHaveLength(1);
    const caption = uploaded.captions[0]!;
    expect(caption).toMatchObject({ videoId, language: "en", name: "English", isDraft: false });
    // the track is SubRip; its cues' text, in order, is exactly the voiceovers
    const text = caption.text
      .trim()
      .split(/\n\n+/)
      .map((block) => block.split("\n").slice(2).join(" "))
      .join(" ");
    expect(text).toBe(VOICEOVERS.join(" "));
    expect(caption.text).toMatch(/^1\n00:00:00,\d{3} --> /);
  });

  it("writes a 5-minute 16:9 video's description with chapters from its scenes, which the pre-flight list accepts", { timeout: 150_000 }, async () => {
    const user = await prisma.user.findUniqueOrThrow({ where: { email } });
    const project = await prisma.project.create({ data: { userId: user.id, title: "Secrets of the Deep Ocean", topic: "Life in the deep", resolution: "landscape", durationSeconds: 300 } });
    await prisma.user.update({ where: { id: user.id }, data: { currentProjectId: project.id } });
    const zones = ["The sunlit zone", "Into the twilight", "Creatures that glow", "The midnight zone", "Giants of the abyss", "Life on the sea floor"];
    const texts = Array.from({ length: 40 }, (_, i) => `${zones[Math.floor(i / 7)]}, scene ${i + 1}. The ocean keeps its secrets well.`);
    await prisma.script.create({ data: { projectId: project.id, status: "completed", targetWords: 420, wordCount: 400, text: texts.join(" ") } });
    const storyboard = await prisma.storyboard.create({ data: { projectId: project.id, title: project.title, status: "completed" } });
    for (const [i, text] of texts.entries()) {
      await prisma.storyboardCell.create({ data: { storyboardId: storyboard.id, cellIndex: i, imagePrompt: "ocean", voiceoverText: text, estimatedDuration: 7.2, audioDuration: 7.2 } });
    }
    // the upload page reads the render's row (length, size, loudness); a short file stands in for the 5 minutes
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "reelsmith-e2e-chapters-"));
    const file = path.join(dir, "video.mp4");
    execFileSync("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=1280x720:rate=30", "-f", "lavfi", "-i", "sine=frequency=220", "-t", "2", "-pix_fmt", "yuv420p", "-c:v", "libx264", "-preset", "ultrafast", "-c:a", "aac", "-y", file]);
    const media = await saveMediaFromPath({ userId: user.id, projectId: project.id, kind: "video", mimeType: "video/mp4", extension: "mp4", sourcePath: file, width: 1280, height: 720, durationSeconds: 300 });
    fs.rmSync(dir, { recursive: true, force: true });
    await prisma.renderedVideo.create({
      data: { projectId: project.id, status: "completed", videoUrl: mediaUrl(media), mediaFileId: media.id, width: 1280, height: 720, durationSeconds: 300, completedAt: new Date(), renderer: "fast", loudnessLufs: -14, truePeakDbtp: -1.5 },
    });

    await page.goto(`${baseUrl()}/upload`);
    await page.getByRole("button", { name: "Write Description and Tags" }).click();
    const description = page.getByLabel("Description");
    await expect.poll(() => description.inputValue(), { timeout: 90_000 }).toContain("Chapters:");
    const chapters = chaptersInDescription(await description.inputValue());
    expect(chapters.length).toBeGreaterThanOrEqual(3);
    expect(chapters[0]).toEqual({ startSeconds: 0, title: "The sunlit zone" });
    expect(validateChapters(chapters, 300)).toMatchObject({ present: true, valid: true });
    const item = page.getByTestId("preflight-chapters");
    await expect.poll(() => item.getAttribute("data-status")).toBe("pass");
    await item.scrollIntoViewIfNeeded();
    await screenshots("upload-chapters");
  });
});
