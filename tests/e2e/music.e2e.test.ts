// The Music screen in Chromium with the offline composer: generate 2 tracks, play one, set the volume to 10 %,
// let it apply, and play the video with background music. The project (storyboard with media and a rendered
// video) is seeded straight into the e2e app's database and media folder: rendering is the render test's job.
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

vi.hoisted(() => {
  // the app under test's database and media folder (scripts/lib/test-app.mjs), before any app module reads them
  process.env.DATABASE_URL = process.env.E2E_DATABASE_URL;
  process.env.DATA_DIR = `${process.env.DATA_DIR ?? ".data"}/e2e-${process.env.E2E_PORT ?? 3100}`;
});

const { prisma } = await import("~/core/db.server");
const { mediaFilePath, mediaIdFromUrl } = await import("~/core/storage.server");
const { baseUrl, launchChromium } = await import("../support/browser");
const { signIn } = await import("../support/browser-auth");
const { seedRenderableProject } = await import("../fixtures/render-project");
const { seedRenderedVideo } = await import("../fixtures/music-project");
const { probeVideo } = await import("../fixtures/video-probe");

let browser: Browser;
let page: Page;
const openToast = () => page.locator("li[data-state=open]");
const screenshots = path.resolve(".data/screenshots");

beforeAll(async () => {
  browser = await launchChromium();
  page = await (await browser.newContext({ viewport: { width: 1280, height: 1000 } })).newPage();
  const email = `composer-${Date.now()}@example.com`;
  await signIn(page, { email, name: "Mia Music" });
  const user = await prisma.user.findUniqueOrThrow({ where: { email } });
  const { projectId } = await seedRenderableProject({ userId: user.id, sceneSeconds: [1, 1], title: "Bees at Dawn", resolution: "shorts" });
  await prisma.project.update({ where: { id: projectId }, data: { durationSeconds: 6 } });
  await seedRenderedVideo({ userId: user.id, projectId, seconds: 4, voiceSeconds: 1, width: 180, height: 320 });
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await prisma.$disconnect();
});

describe("adding background music", () => {
  it("the header's Add Music link opens the Music screen with no tracks yet", async () => {
    await page.goto(`${baseUrl()}/dashboard`);
    await page.getByRole("link", { name: "Add Music" }).first().click();
    await page.waitForURL(`${baseUrl()}/music`);
    await page.getByRole("heading", { name: "Add Background Music" }).waitFor();
    await page.getByText("No music tracks generated yet.").waitFor();
    expect(await page.getByRole("button", { name: "Generate 1 Track" }).isDisabled()).toBe(true);
  });

  it("generates 2 offline tracks and shows them pending, then complete", { timeout: 180_000 }, async () => {
    await page.getByLabel("Music prompt").fill("gentle morning piano");
    const count = page.getByRole("slider", { name: "Number of Tracks" });
    await count.focus();
    await count.press("ArrowRight");
    await page.getByRole("button", { name: "Generate 2 Tracks" }).click();
    await openToast().getByText("Music Generation Started").waitFor();
    await openToast().getByText("Your background music tracks are being generated...").waitFor();
    await expect.poll(() => page.getByTestId("music-track").count()).toBe(2);
    // while the composer works: a badge and a disabled button with a spinner per track
    await page.getByTestId("track-badge").filter({ hasText: /^(Pending|Processing)$/ }).first().waitFor();
    // no title until the track is made: the spec's fallback
    expect(await page.getByRole("button", { name: "Untitled Track is not ready" }).first().isDisabled()).toBe(true);
    await page.screenshot({ path: path.join(screenshots, "music-generating.png"), fullPage: true });
    await page.getByTestId("count-completed").filter({ hasText: /^2$/ }).waitFor({ timeout: 170_000 });
    await expect.poll(() => page.getByTestId("track-badge").allTextContents()).toEqual(["Complete", "Complete"]);
    await page.getByRole("heading", { name: "Gentle Morning Piano (1)" }).waitFor();
  });

  it("plays one track (time moving, seek enabled once the length is known), and only one at a time", async () => {
    await page.getByRole("button", { name: "Play Gentle Morning Piano (1)" }).click();
    await page.getByRole("button", { name: "Pause Gentle Morning Piano (1)" }).waitFor();
    const card = page.getByRole("article", { name: "Gentle Morning Piano (1)" });
    await expect.poll(() => card.getByTestId("track-time").textContent(), { timeout: 10_000 }).toMatch(/^0:0[1-6] \/ 0:06$/);
    expect(await card.getByRole("slider", { name: "Seek Gentle Morning Piano (1)" }).getAttribute("data-disabled")).toBeNull();
    await page.screenshot({ path: path.join(screenshots, "music-playing.png"), fullPage: true });
    // one track at a time: starting the other pauses this one
    await page.getByRole("button", { name: "Play Gentle Morning Piano (2)" }).click();
    await page.getByRole("button", { name: "Pause Gentle Morning Piano (2)" }).waitFor();
    await page.getByRole("button", { name: "Play Gentle Morning Piano (1)" }).waitFor();
    await page.getByRole("button", { name: "Pause Gentle Morning Piano (2)" }).click();
    await page.getByRole("button", { name: "Play Gentle Morning Piano (2)" }).waitFor();
    expect(await page.getByRole("button", { name: /^Pause / }).count()).toBe(0);
  });

  it("sets the volume to 10 %, applies it automatically, and plays the video with background music", { timeout: 60_000 }, async () => {
    const volume = page.getByRole("slider", { name: "Background Music Volume" });
    await page.getByTestId("music-volume").filter({ hasText: "5%" }).waitFor();
    await volume.focus();
    await volume.press("Home");
    await volume.press("PageUp"); // 10 steps
    await page.getByTestId("music-volume").filter({ hasText: "10%" }).waitFor();
    await page.getByText("Automatically applying background music at 10% volume...").waitFor();
    await openToast().getByText("Background Music Added").waitFor({ timeout: 50_000 });
    await openToast().getByText("Background music has been successfully added to your video at 10% volume!").waitFor();

    const section = page.locator("section[aria-labelledby=music-video]");
    await section.getByRole("heading", { name: "Video with Background Music" }).waitFor();
    await section.getByRole("link", { name: "Download Video" }).waitFor();
    await section.getByRole("button", { name: "Copy Link" }).waitFor();
    const played = await section.locator("video").evaluate(async (video: HTMLVideoElement) => {
      video.muted = true;
      await video.play();
      await new Promise((r) => setTimeout(r, 1200));
      return { time: video.currentTime, duration: video.duration, error: video.error?.code ?? null };
    });
    expect(played.error).toBeNull();
    expect(played.time).toBeGreaterThan(0.3);
    expect(played.duration).toBeCloseTo(4, 0);
    await page.screenshot({ path: path.join(screenshots, "music-applied.png"), fullPage: true });

    // the server kept 10 % and made a video with both streams, as long as the render
    const src = (await section.locator("video").getAttribute("src"))!;
    const mixed = await prisma.renderedVideo.findFirstOrThrow({ where: { videoUrl: src } });
    expect(mixed).toMatchObject({ withMusic: true, volumeLevel: 10 });
    const file = await prisma.mediaFile.findUniqueOrThrow({ where: { id: mediaIdFromUrl(src)! } });
    const facts = await probeVideo(mediaFilePath(file));
    expect(facts.audio?.codec).toBe("aac");
    expect(facts.video.durationSeconds).toBeCloseTo(4, 1);
  });
});
