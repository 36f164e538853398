// Pexels stock photos in Chromium, against the local fake of the Pexels API the test app is pointed at: the
// creator saves their Pexels key in Settings, chooses "Pexels photos" on a 9:16 storyboard, generates the
// scenes, and sees the photos (credited) on the cards and in the preview. Then three offline storyboards
// (two 9:16, one 16:9) are photographed for review, each at 1280x800 and 390x844. The 16:9 one starts from a short
// script of the creator's own (three parts, three scenes): the sample draft of the shortest 16:9 video (5 minutes)
// has some twenty scenes, whose images and voiceovers took over two of the suite's minutes (issue 55) and showed
// the reviewer nothing three scenes do not.
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { baseUrl, launchChromium } from "../support/browser";
import { signIn } from "../support/browser-auth";
import { type CreateFormat, createVideo, fillCreateForm, generateAllContent, generateStoryboard } from "../support/creator-steps";
import { screenshotsDir } from "../support/screenshots";
import { storedImageSize } from "../support/stored-image";

const PEXELS_KEY = "pexels-e2e-key-0123456789";
let browser: Browser;
let page: Page;
// the run's screenshot folder (npm test prints it), where the reviewer looks: a temporary folder hid them
const shots = process.env.SCREENSHOT_DIR ?? screenshotsDir();

beforeAll(async () => {
  browser = await launchChromium();
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  page = await context.newPage();
  await signIn(page, { email: `stock-${Date.now()}@example.com`, name: "Sam Stock" });
});
afterAll(async () => {
  await browser?.close();
});

/**
 * A new project's storyboard; a Short two steps above the shortest duration (15 s, three scenes planned), so that it
 * has several scenes, or the shortest 16:9 video. With `script`, the creator's own words (parts split by `---` lines,
 * each a scene) instead of the template's sample draft.
 */
async function createStoryboard(title: string, topic: string, format: CreateFormat, script?: string) {
  await fillCreateForm(page, { title, format, seconds: format === "9:16 Shorts" ? 15 : 300, ...(script ? { script } : { topic }) });
  await createVideo(page);
  await generateStoryboard(page, 150_000);
}

// under load, a storyboard's images and voiceovers may take minutes
const generateAll = () => generateAllContent(page, 540_000);

/** Every scene card's picture, loaded (scrolled into view: the cards load their images lazily); their number. */
async function imagesLoaded() {
  const cards = page.locator("article");
  const count = await cards.count();
  const images = page.locator("article img");
  await expect.poll(() => images.count(), { timeout: 60_000 }).toBe(count);
  for (let i = 0; i < count; i++) {
    await images.nth(i).scrollIntoViewIfNeeded();
    await expect.poll(() => images.nth(i).evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0), { timeout: 30_000 }).toBe(true);
  }
  await page.evaluate(() => window.scrollTo(0, 0));
  return count;
}

/** The page at 1280x800 and at 390x844 (a phone), whole. */
async function photograph(name: string) {
  await page.screenshot({ path: path.join(shots, `${name}-1280x800.png`), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForTimeout(500);
  await page.screenshot({ path: path.join(shots, `${name}-390x844.png`), fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });
}

describe("Pexels stock photos", () => {
  it("key in Settings, Pexels photos chosen on the storyboard, photos on the cards and in the preview", { timeout: 600_000 }, async () => {
    // Without a key, the storyboard says Pexels needs one and links to Settings.
    await createStoryboard("Lighthouse Nights", "How lighthouses guide ships along rocky coasts at night", "9:16 Shorts");
    const source = page.getByLabel("Image source");
    await expect.poll(() => source.locator("option[value=pexels_photos]").textContent()).toBe("Pexels photos (needs your Pexels key)");
    expect(await source.locator("option[value=pexels_photos]").isDisabled()).toBe(true);
    await page.getByRole("link", { name: /^add (it|them) in Settings$/ }).click();
    await page.waitForURL(`${baseUrl()}/settings`);

    await page.locator("#pexelsApiKey").fill(PEXELS_KEY);
    await page.getByRole("button", { name: "Save API Keys" }).click();
    await page.getByText("API Keys Saved").first().waitFor();
    await expect.poll(() => page.locator("#pexelsApiKey").getAttribute("placeholder")).toBe("•".repeat(PEXELS_KEY.length));

    await page.goto(`${baseUrl()}/storyboard`);
    await page.getByRole("article", { name: "Scene 1", exact: true }).waitFor({ timeout: 60_000 });
    await page.getByLabel("Image source").selectOption("pexels_photos");
    await page.getByText("New scene images come from: Pexels photos (your key).").first().waitFor();

    await generateAll();
    const count = await imagesLoaded();
    const cards = page.locator("article");
    expect(await cards.count()).toBe(count);
    // every card shows a Pexels photo, credited to its photographer
    for (let i = 0; i < count; i++) {
      const card = cards.nth(i);
      expect(await card.getByText(/^Pexels · photo$/).count()).toBe(1);
      expect(await card.getByRole("link", { name: /^Photo by .+ on Pexels$/ }).getAttribute("href")).toMatch(/^https:\/\/www\.pexels\.com\/photo\//);
    }
    // the photo is the fake's portrait picture scaled to 1080x1920
    const first = cards.first().locator("img");
    expect(await storedImageSize(first)).toEqual([1080, 1920]);

    // the preview (Remotion Player) shows the scene photos
    const src = await first.getAttribute("src");
    const preview = page.locator("section[aria-label='Video preview']");
    await preview.scrollIntoViewIfNeeded(); // it loads when it nears the screen
    await expect.poll(() => preview.locator("img").evaluateAll((imgs, s) => imgs.some((i) => (i as HTMLImageElement).src.endsWith(s!)), src), { timeout: 30_000 }).toBe(true);
    await photograph("pexels-photos-storyboard-9x16");
  });
});

describe("offline storyboards, photographed for review", () => {
  const storyboards = [
    { name: "offline-1-octopus-9x16", title: "Octopus Secrets", topic: "How octopuses change colour, squeeze through gaps and outsmart crabs in the sea", format: "9:16 Shorts" as const },
    { name: "offline-2-kitchen-9x16", title: "Morning Coffee", topic: "Why coffee, bread and eggs make the classic breakfast in the kitchen", format: "9:16 Shorts" as const },
    {
      name: "offline-3-volcano-16x9",
      title: "Volcano Island",
      topic: "How volcanoes build islands in the ocean, with lava, ash and new forests",
      format: "16:9 Landscape" as const,
      script: ["Deep under the ocean, a volcano pours out glowing lava.", "Layer by layer, lava and ash rise above the waves as a new island.", "Seeds arrive on the wind and birds, and a young forest covers the slopes."].join("\n---\n"),
    },
  ];
  for (const s of storyboards) {
    it(`${s.title} (${s.format})`, { timeout: 900_000 }, async () => {
      await createStoryboard(s.title, s.topic, s.format, "script" in s ? s.script : undefined);
      expect(await page.getByLabel("Image source").inputValue()).toBe("offline");
      await generateAll();
      expect(await imagesLoaded()).toBeGreaterThanOrEqual(2);
      // offline illustrations carry no Pexels credit
      expect(await page.getByRole("link", { name: /on Pexels$/ }).count()).toBe(0);
      await photograph(s.name);
    });
  }
});
