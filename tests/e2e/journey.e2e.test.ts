// The whole journey, the way a creator takes it, in Chromium against the built app with the offline providers
// and no keys (issue 25): a new user signs in through the built-in provider, creates a 30 s 9:16 Short, waits
// for the script, generates the storyboard, Generate All, replaces one scene's image with an upload, generates
// one music track, renders, applies the music at 10 %, generates and approves a thumbnail, connects YouTube
// (the local fake, tests/fakes/youtube-server.ts) and uploads on a schedule, and sees the video id.
// Every screen on the way is photographed at desktop and phone widths (tests/support/screenshots.ts), and each
// stage's time is printed at the end.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import sharp from "sharp";
import type { Browser, BrowserContext, Download, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FAKE_CLIENT_ID, FAKE_CLIENT_SECRET } from "../fakes/youtube";
import { baseUrl, launchChromium } from "../support/browser";
import { signIn } from "../support/browser-auth";
import { createVideo, fillCreateForm, generateAllContent, generateStoryboard } from "../support/creator-steps";
import { shootBoth } from "../support/screenshots";

const TITLE = "The Secret Life of Octopuses";
const TOPIC = "How octopuses change colour, squeeze through tiny gaps and solve puzzles in the sea";

let browser: Browser;
let context: BrowserContext;
let page: Page;
const openToast = () => page.locator("li[data-state=open]");
const stageTimes: [string, number][] = [];
let stageStarted = performance.now();
function stageDone(name: string) {
  const now = performance.now();
  stageTimes.push([name, (now - stageStarted) / 1000]);
  stageStarted = now;
}

type Probe = { streams: { codec_type: string; codec_name: string; width?: number; height?: number }[]; format: { duration: string } };
function probe(file: string): Probe {
  const out = execFileSync("ffprobe", ["-v", "error", "-show_entries", "stream=codec_type,codec_name,width,height:format=duration", "-of", "json", file]);
  return JSON.parse(String(out)) as Probe;
}

type FakeState = {
  videos: {
    id: string;
    bytes: number;
    thumbnail: { bytes: number; contentType: string } | null;
    resource: { snippet: { title: string; description: string; tags?: string[] }; status: { privacyStatus: string; publishAt?: string } };
  }[];
};
const fakeState = async () => (await (await fetch(`${process.env.E2E_YOUTUBE_FAKE_URL}/__fake/state`)).json()) as FakeState;

async function downloadFrom(click: () => Promise<void>): Promise<{ download: Download; file: string }> {
  const [download] = await Promise.all([page.waitForEvent("download"), click()]);
  return { download, file: (await download.path())! };
}

beforeAll(async () => {
  browser = await launchChromium();
  // a creator on UTC wall-clock time, so the schedule's publishAt reads the same as the form
  context = await browser.newContext({ acceptDownloads: true, viewport: { width: 1280, height: 800 }, timezoneId: "UTC" });
  page = await context.newPage();
});
afterAll(async () => {
  if (stageTimes.length) {
    const total = stageTimes.reduce((sum, [, s]) => sum + s, 0);
    console.log(["journey stage times:", ...stageTimes.map(([n, s]) => `  ${n.padEnd(28)} ${s.toFixed(1)} s`), `  ${"total".padEnd(28)} ${total.toFixed(1)} s`].join("\n"));
  }
  await browser?.close();
});

describe("the whole journey, from signing in to a scheduled YouTube upload", () => {
  let renderedSeconds = 0;
  let musicVideoBytes = 0;

  it("a new creator signs in through the built-in provider and lands signed in", async () => {
    stageStarted = performance.now();
    await page.goto(`${baseUrl()}/api/login`);
    await shootBoth(page, "01-sign-in");
    await signIn(page, { email: `journey-${Date.now()}@example.com`, name: "Jo Journey" });
    await page.goto(`${baseUrl()}/dashboard`);
    await shootBoth(page, "02-dashboard-empty");
    stageDone("sign in");
  });

  it("creates a 30 s 9:16 Short and waits for its script", { timeout: 150_000 }, async () => {
    await fillCreateForm(page, { title: TITLE, topic: TOPIC, format: "9:16 Shorts", seconds: 30 });
    await shootBoth(page, "03-create-filled");
    await createVideo(page);
    await page.getByRole("button", { name: "Download Script" }).waitFor({ timeout: 120_000 });
    const text = (await page.getByTestId("script-text").textContent()) ?? "";
    // 30 s of narration is roughly 75 words
    expect(text.split(/\s+/).filter(Boolean).length).toBeGreaterThan(50);
    await page.getByText(/^\d+ words \(/).waitFor();
    await shootBoth(page, "04-script-done");
    stageDone("script");
  });

  it("generates the storyboard: one card per scene, none with media yet", { timeout: 150_000 }, async () => {
    await generateStoryboard(page);
    // a 30 s Short at about five seconds a scene
    const count = await page.locator("article[aria-label^='Scene ']").count();
    expect(count).toBeGreaterThanOrEqual(4);
    expect(count).toBeLessThanOrEqual(8);
    expect(await page.locator("article[aria-label^='Scene '] audio").count()).toBe(0);
    await shootBoth(page, "05-storyboard-no-media");
    stageDone("storyboard");
  });

  it("Generate All gives every scene an image and a voiceover", { timeout: 200_000 }, async () => {
    await generateAllContent(page);
    const scenes = await page.locator("article[aria-label^='Scene ']").count();
    expect(await page.locator("article[aria-label^='Scene '] audio").count()).toBe(scenes);
    const images = page.locator("article[aria-label^='Scene '] img");
    await expect.poll(() => images.count()).toBe(scenes);
    await expect
      .poll(() => images.evaluateAll((imgs) => imgs.every((img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth > 0)), { timeout: 30_000 })
      .toBe(true);
    await shootBoth(page, "06-storyboard-generated");
    stageDone("generate all");
  });

  it("replaces Scene 2's image with an upload of the creator's own", { timeout: 90_000 }, async () => {
    const card = page.getByRole("article", { name: "Scene 2", exact: true });
    const before = await card.locator("img").getAttribute("src");
    const orange = await sharp({ create: { width: 900, height: 1600, channels: 3, background: "#ff7a00" } }).png().toBuffer();
    await card.getByLabel("Scene 2: upload an image or clip").setInputFiles({ name: "my-octopus.png", mimeType: "image/png", buffer: orange });
    await card.getByText("Your upload").waitFor({ timeout: 60_000 });
    const after = await card.locator("img").getAttribute("src");
    expect(after).toMatch(/^\/api\/media\//);
    expect(after).not.toBe(before);
    await card.getByRole("button", { name: "Back to Generated" }).waitFor();
    await shootBoth(page, "07-storyboard-with-upload");
    stageDone("scene upload");
  });

  it("generates one music track", { timeout: 200_000 }, async () => {
    await page.getByRole("link", { name: "Add Music" }).first().click();
    await page.waitForURL(`${baseUrl()}/music`);
    await page.getByRole("heading", { name: "Add Background Music" }).waitFor();
    await page.getByText("No music tracks generated yet.").waitFor();
    await shootBoth(page, "08-music-empty");
    await page.getByLabel("Music prompt").fill("curious underwater marimba");
    await page.getByRole("button", { name: "Generate 1 Track" }).click();
    await openToast().getByText("Music Generation Started").waitFor();
    await expect.poll(() => page.getByTestId("music-track").count()).toBe(1);
    await shootBoth(page, "09-music-generating");
    await page.getByTestId("count-completed").filter({ hasText: /^1$/ }).waitFor({ timeout: 180_000 });
    await expect.poll(() => page.getByTestId("track-badge").allTextContents()).toEqual(["Complete"]);
    await page.getByRole("heading", { name: /^Curious Underwater Marimba/ }).waitFor();
    await shootBoth(page, "10-music-track-ready");
    stageDone("music track");
  });

  it("renders the video: progress, then a playable 1080x1920 MP4 with sound", { timeout: 480_000 }, async () => {
    await page.getByRole("link", { name: "Render Video", exact: true }).first().click();
    await page.waitForURL(`${baseUrl()}/render`);
    await page.getByRole("heading", { name: "Ready to Render" }).waitFor();
    await shootBoth(page, "11-render-ready");
    await page.getByRole("button", { name: "Render Video" }).click();
    await openToast().getByText("Rendering has begun").waitFor();
    await page.getByRole("progressbar", { name: "Render progress" }).waitFor();
    await shootBoth(page, "12-render-in-progress");
    await page.getByRole("heading", { name: "Video Rendered Successfully" }).waitFor({ timeout: 460_000 });
    expect(await page.getByTestId("render-subtitle").textContent()).toMatch(/^Render • (\d+) of \1 scenes rendered$/);
    await shootBoth(page, "13-render-done");
    stageDone("render");

    const { download, file } = await downloadFrom(() => page.getByRole("link", { name: "Download Video" }).click());
    expect(download.suggestedFilename()).toBe("the_secret_life_of_octopuses.mp4");
    const info = probe(file);
    expect(info.streams.find((s) => s.codec_type === "video")).toMatchObject({ codec_name: "h264", width: 1080, height: 1920 });
    expect(info.streams.find((s) => s.codec_type === "audio")?.codec_name).toBe("aac");
    renderedSeconds = Number(info.format.duration);
    // the narration of a 30 s script, give or take the voice's pace and the scenes' pads
    expect(renderedSeconds).toBeGreaterThan(18);
    expect(renderedSeconds).toBeLessThan(48);
    // the creator's orange upload is on screen for a while: some of the video's frames (one a second) are orange
    const frames = execFileSync("ffmpeg", ["-v", "error", "-i", file, "-vf", "fps=1,scale=27:48", "-f", "rawvideo", "-pix_fmt", "rgb24", "-"], { maxBuffer: 64 * 1024 * 1024 });
    const frameBytes = 27 * 48 * 3;
    let orange = 0;
    for (let at = 0; at + frameBytes <= frames.length; at += frameBytes) {
      let [r, g, b] = [0, 0, 0];
      for (let i = at; i < at + frameBytes; i += 3) [r, g, b] = [r + frames[i]!, g + frames[i + 1]!, b + frames[i + 2]!];
      const n = frameBytes / 3;
      if (r / n > 180 && r / n > g / n + 50 && g / n > b / n + 40) orange++;
    }
    expect(orange).toBeGreaterThanOrEqual(2);
  });

  it("applies the music at 10 % and plays the video with background music", { timeout: 200_000 }, async () => {
    await page.getByRole("link", { name: "Add Music" }).first().click();
    await page.waitForURL(`${baseUrl()}/music`);
    const volume = page.getByRole("slider", { name: "Background Music Volume" });
    await volume.focus();
    await volume.press("Home");
    await volume.press("PageUp"); // ten steps of 1 %
    await page.getByTestId("music-volume").filter({ hasText: "10%" }).waitFor();
    await page.getByText("Automatically applying background music at 10% volume...").waitFor();
    await openToast().getByText("Background Music Added").waitFor({ timeout: 180_000 });
    await openToast().getByText("Background music has been successfully added to your video at 10% volume!").waitFor();
    const section = page.locator("section[aria-labelledby=music-video]");
    await section.getByRole("heading", { name: "Video with Background Music" }).waitFor();
    const played = await section.locator("video").evaluate(async (video: HTMLVideoElement) => {
      video.muted = true;
      await video.play();
      await new Promise((r) => setTimeout(r, 1500));
      return { time: video.currentTime, duration: video.duration, error: video.error?.code ?? null };
    });
    expect(played.error).toBeNull();
    expect(played.time).toBeGreaterThan(0.3);
    expect(played.duration).toBeCloseTo(renderedSeconds, 0);
    await shootBoth(page, "14-music-applied");

    const { file } = await downloadFrom(() => section.getByRole("link", { name: "Download Video" }).click());
    const info = probe(file);
    expect(info.streams.find((s) => s.codec_type === "audio")?.codec_name).toBe("aac");
    expect(Number(info.format.duration)).toBeCloseTo(renderedSeconds, 0);
    musicVideoBytes = fs.statSync(file).size;
    stageDone("music mix at 10 %");
  });

  it("generates a thumbnail from a scene and approves it", { timeout: 150_000 }, async () => {
    await page.goto(`${baseUrl()}/thumbnail`);
    await page.getByRole("heading", { name: "Thumbnail", exact: true }).waitFor();
    await page.getByRole("button", { name: "Scene 1" }).waitFor();
    expect(await page.getByLabel("Title text").inputValue()).toBe(TITLE);
    await shootBoth(page, "15-thumbnail-form");
    await page.getByRole("button", { name: "Generate Thumbnail" }).click();
    await openToast().getByText("Thumbnail generated").waitFor({ timeout: 120_000 });
    const preview = page.getByRole("img", { name: `Thumbnail: ${TITLE}` });
    await preview.waitFor();
    // the image element shows before its bytes arrive on a busy machine: wait for it to load
    await expect.poll(() => preview.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth), { timeout: 30_000 }).toBe(1280);
    await page.getByRole("button", { name: "Approve Thumbnail" }).click();
    await openToast().getByText("Thumbnail approved").waitFor();
    await page.getByTestId("thumbnail-approved").waitFor();
    await shootBoth(page, "16-thumbnail-approved");
    stageDone("thumbnail");
  });

  it("saves the Google OAuth client in Settings and connects YouTube through the consent popup", { timeout: 90_000 }, async () => {
    await page.goto(`${baseUrl()}/settings`);
    await page.getByLabel("OAuth Client ID").fill(FAKE_CLIENT_ID);
    await page.getByLabel("OAuth Client Secret", { exact: true }).fill(FAKE_CLIENT_SECRET);
    await page.getByRole("button", { name: "Save OAuth Credentials" }).click();
    await openToast().getByText("OAuth Credentials Saved").waitFor();
    await shootBoth(page, "17-settings-oauth-saved");

    await page.getByRole("link", { name: "Upload", exact: true }).first().click();
    await page.waitForURL(`${baseUrl()}/upload`);
    await page.getByRole("heading", { name: "Your Video" }).waitFor();
    await shootBoth(page, "18-upload-connect");
    const popupPromise = context.waitForEvent("page");
    await page.getByRole("button", { name: "Connect YouTube" }).click();
    const popup = await popupPromise;
    await popup.waitForEvent("close", { timeout: 30_000 });
    await openToast().getByText("YouTube connected").waitFor({ timeout: 15_000 });
    await page.getByText("Connected: Fake Creator Channel").waitFor();
    stageDone("connect YouTube");
  });

  it("uploads on the suggested schedule and shows the video id; the fake received the right metadata", { timeout: 180_000 }, async () => {
    expect(await page.getByLabel("Title", { exact: true }).inputValue()).toBe(TITLE);
    await page.getByRole("button", { name: "Write Description and Tags" }).click();
    await expect.poll(() => page.getByLabel("Description").inputValue(), { timeout: 60_000 }).not.toBe("");
    await expect.poll(() => page.getByLabel("Tags (comma separated)").inputValue()).not.toBe("");
    const description = await page.getByLabel("Description").inputValue();
    const tags = (await page.getByLabel("Tags (comma separated)").inputValue())
      .split(",")
      .map((t) => t.trim())
      .filter(Boolean);
    await page.getByRole("button", { name: "Use it" }).click();
    const date = await page.getByLabel("Schedule date").inputValue();
    const time = await page.getByLabel("Schedule time").inputValue();
    expect(date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(time).toMatch(/^\d{2}:\d{2}$/);
    expect(await page.getByLabel("Privacy").inputValue()).toBe("private");
    await shootBoth(page, "19-upload-form-scheduled");

    await page.getByRole("button", { name: "Schedule Upload" }).click();
    await page.getByRole("progressbar", { name: "Upload progress" }).waitFor();
    const id = page.getByTestId("youtube-video-id");
    await id.waitFor({ timeout: 150_000 });
    await openToast().getByText("Upload complete").waitFor();
    await page.getByText(/^Scheduled: private until /).waitFor();
    const videoId = (await id.textContent())!;
    expect(videoId).toMatch(/^[\w-]{11}$/);
    expect(await page.getByRole("link", { name: "Watch on YouTube" }).getAttribute("href")).toBe(`https://www.youtube.com/watch?v=${videoId}`);
    await shootBoth(page, "20-upload-done");
    stageDone("upload");

    const uploaded = (await fakeState()).videos.find((v) => v.id === videoId);
    expect(uploaded).toBeDefined();
    // the video with its background music, byte for byte
    expect(uploaded!.bytes).toBe(musicVideoBytes);
    expect(uploaded!.resource.snippet.title).toBe(TITLE);
    expect(uploaded!.resource.snippet.description).toBe(description);
    expect(uploaded!.resource.snippet.tags).toEqual(tags);
    expect(uploaded!.resource.status.privacyStatus).toBe("private");
    // the creator's wall clock is UTC in this browser
    expect(uploaded!.resource.status.publishAt).toBe(`${date}T${time}:00.000Z`);
    // the approved thumbnail went along with it
    expect(uploaded!.thumbnail?.contentType).toMatch(/^image\/(png|jpeg)/);
    expect(uploaded!.thumbnail!.bytes).toBeGreaterThan(10_000);
  });

  it("the dashboard shows the project as uploaded", async () => {
    await page.goto(`${baseUrl()}/dashboard`);
    await page.getByText(TITLE).first().waitFor();
    await shootBoth(page, "21-dashboard-done");
  });
});
