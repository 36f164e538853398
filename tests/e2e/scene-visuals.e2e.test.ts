// Scenes that show what the narration says, in Chromium with the offline providers: a 9:16 storyboard illustrated
// offline, photographed for review; then one scene's image replaced by an upload, seen on its card, in the preview,
// and in the rendered video. (The octopus storyboard this file also made is made, checked and photographed at both
// widths by tests/e2e/pexels.e2e.test.ts, with the same title and topic: issue 55 shares the set-up.)
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { baseUrl, launchChromium } from "../support/browser";
import { signIn } from "../support/browser-auth";
import { createVideo, fillCreateForm, generateAllContent, generateStoryboard } from "../support/creator-steps";

let browser: Browser;
let page: Page;
const shots = process.env.SCREENSHOT_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), "scene-visuals-"));

beforeAll(async () => {
  browser = await launchChromium();
  const context = await browser.newContext({ acceptDownloads: true, viewport: { width: 1400, height: 1000 } });
  page = await context.newPage();
  await signIn(page, { email: `illustrator-${Date.now()}@example.com`, name: "Ivy Illustrator" });
});
afterAll(async () => {
  await browser?.close();
});

/** The scene images as the browser shows them: real pictures (decoded, the format's shape), not text on a gradient. */
async function sceneImagesShown(count: number) {
  const images = page.locator("article img");
  await expect.poll(() => images.count(), { timeout: 60_000 }).toBeGreaterThanOrEqual(count);
  for (let i = 0; i < count; i++) {
    await expect.poll(() => images.nth(i).evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0), { timeout: 30_000 }).toBe(true);
  }
}

describe("offline storyboards illustrate their scenes", () => {
  it("a 9:16 storyboard about cats and dogs, then one scene replaced by an upload, in the preview and the render", { timeout: 600_000 }, async () => {
    // the creator's last project: a 9:16 Short, its title and topic typed into the form, from a script of their own
    // (nothing to write, so nothing runs beside this test; only the form matters here: the octopus storyboard is
    // made, illustrated and photographed by tests/e2e/pexels.e2e.test.ts)
    await fillCreateForm(page, {
      title: "Octopus Secrets",
      script: "An octopus can change colour in a blink.\n---\nIt squeezes through any gap wider than its beak.",
      topic: "How octopuses change colour, squeeze through gaps and outsmart crabs in the sea",
      format: "9:16 Shorts",
    });
    await createVideo(page);
    await page.getByText("Your own words").waitFor({ timeout: 30_000 });
    // a new video's form starts empty, in the last project's format (decision 191)
    await page.goto(`${baseUrl()}/create`);
    expect(await page.getByLabel("Title").inputValue()).toBe("");
    expect(await page.getByLabel("Topic").inputValue()).toBe("");
    expect(await page.getByRole("radio", { name: /9:16 Shorts/ }).isChecked()).toBe(true);
    await fillCreateForm(page, { title: "Cats and Dogs at Home", topic: "Why cats and dogs sleep so much, and what their pets' toys and bowls tell us", format: "9:16 Shorts", seconds: 10 });
    await createVideo(page);
    await generateStoryboard(page, 150_000);
    await generateAllContent(page, 150_000);
    await sceneImagesShown(2);
    await page.screenshot({ path: path.join(shots, "storyboard-3-pets-9x16.png"), fullPage: true });

    // Scene 1 gets the creator's own (pure green) picture.
    const card = page.getByRole("article", { name: "Scene 1", exact: true });
    const before = await card.locator("img").getAttribute("src");
    const green = await sharp({ create: { width: 900, height: 1600, channels: 3, background: "#00c000" } }).png().toBuffer();
    await card.getByLabel("Scene 1: upload an image or clip").setInputFiles({ name: "my-photo.png", mimeType: "image/png", buffer: green });
    await card.getByText("Your upload").waitFor({ timeout: 60_000 });
    const after = await card.locator("img").getAttribute("src");
    expect(after).toMatch(/^\/api\/media\//);
    expect(after).not.toBe(before);
    await card.getByRole("button", { name: "Back to Generated" }).waitFor();

    // the preview (Remotion Player) shows the upload in its first frame
    const preview = page.locator("section[aria-label='Video preview']");
    await preview.scrollIntoViewIfNeeded(); // it loads when it nears the screen
    await expect.poll(() => preview.locator("img").evaluateAll((imgs, src) => imgs.some((i) => (i as HTMLImageElement).src.endsWith(src!)), after), { timeout: 30_000 }).toBe(true);
    await page.screenshot({ path: path.join(shots, "storyboard-3-pets-upload-9x16.png"), fullPage: true });

    // the render shows it too: the first second of the video is green
    await page.getByRole("link", { name: "Continue to Render" }).click();
    await page.getByRole("button", { name: "Render Video" }).click();
    await page.getByRole("heading", { name: "Video Rendered Successfully" }).waitFor({ timeout: 540_000 });
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Download Video" }).click()]);
    const frame = path.join(shots, "render-scene-1.png");
    execFileSync("ffmpeg", ["-v", "error", "-y", "-ss", "0.8", "-i", (await download.path())!, "-frames:v", "1", frame]);
    const { channels } = await sharp(frame).stats();
    expect(channels[1]!.mean).toBeGreaterThan(channels[0]!.mean + 60);
    expect(channels[1]!.mean).toBeGreaterThan(channels[2]!.mean + 60);
  });
});
