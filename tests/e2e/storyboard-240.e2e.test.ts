// The storyboard page with a 60-minute video's 240 scenes (issue 38), in Chromium: every card renders, each card's
// title is reachable by scrolling, a card in the middle edits with Save, and the page's first render, its longest
// main-thread task and its scrolling frames are measured and bounded. The project (240 scenes, each with a small
// image and a second of audio) is seeded straight into the e2e app's database and media folder.
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

vi.hoisted(() => {
  // the app under test's database and media folder (scripts/lib/test-app.mjs), before any app module reads them
  process.env.DATABASE_URL = process.env.E2E_DATABASE_URL;
  process.env.DATA_DIR = `${process.env.DATA_DIR ?? ".data"}/e2e-${process.env.E2E_PORT ?? 3100}`;
});

const { prisma } = await import("~/core/db.server");
const { mediaUrl, saveMedia } = await import("~/core/storage.server");
const { baseUrl, launchChromium } = await import("../support/browser");
const { signIn } = await import("../support/browser-auth");
const { sceneImage, toneWav } = await import("../fixtures/render-project");

const SCENES = 240;
/**
 * Bounds at about four times what a busy 2-core machine measured (all cards 1.7 s after navigation, longest task
 * 0.47 s, scrolling frames 17 ms median and 54 ms at the 95th percentile): a page that froze would pass them all.
 */
const FIRST_RENDER_MS = 8_000;
const LONGEST_TASK_MS = 2_000;
const SCROLL_FRAME_P95_MS = 200;
const EDIT_OPEN_MS = 2_000;

let browser: Browser;
let page: Page;
let storyboardId: string;
const scenes = () => page.locator("article[aria-label^='Scene ']");

beforeAll(async () => {
  browser = await launchChromium();
  page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  const email = `long-video-${Date.now()}@example.com`;
  await signIn(page, { email, name: "Lena Long" });
  const user = await prisma.user.findUniqueOrThrow({ where: { email } });
  const title = "An Hour on the Reef";
  const project = await prisma.project.create({
    data: {
      userId: user.id,
      title,
      topic: "coral reefs",
      resolution: "landscape",
      durationSeconds: 3600,
      script: { create: { status: "completed", text: "Reefs.", wordCount: 1, targetWords: 9000 } },
    },
  });
  const storyboard = await prisma.storyboard.create({ data: { projectId: project.id, title, status: "completed" } });
  storyboardId = storyboard.id;
  // one small image and one audio file, shared: the page's work is the 240 cards, not the files
  const image = await saveMedia({ userId: user.id, projectId: project.id, kind: "image", data: await sceneImage(0, 256, 144), mimeType: "image/png", extension: "png", width: 256, height: 144 });
  const audio = await saveMedia({ userId: user.id, projectId: project.id, kind: "voiceover", data: toneWav(1, 330), mimeType: "audio/wav", extension: "wav", durationSeconds: 1 });
  await prisma.storyboardCell.createMany({
    data: Array.from({ length: SCENES }, (_, cellIndex) => ({
      storyboardId: storyboard.id,
      cellIndex,
      imagePrompt: `reef, fish, scene ${cellIndex + 1} of "${title}", cinematic photograph`,
      voiceoverText: `Scene ${cellIndex + 1} of the reef: the coral grows a little every year, and the fish come back at dusk.`,
      imageUrl: mediaUrl(image),
      imageFileId: image.id,
      audioUrl: mediaUrl(audio),
      audioFileId: audio.id,
      estimatedDuration: 15,
      audioDuration: 15,
    })),
  });
  await prisma.user.update({ where: { id: user.id }, data: { currentProjectId: project.id } });
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await prisma.$disconnect();
});

describe("the storyboard page with 240 scenes", () => {
  it("renders all 240 cards in a bounded time, with no main-thread task that freezes the page", async () => {
    // Long tasks are recorded from the start of the page's life (buffered observer set before any script runs).
    await page.addInitScript(() => {
      const w = window as unknown as { longTasks: number[] };
      w.longTasks = [];
      new PerformanceObserver((list) => list.getEntries().forEach((e) => w.longTasks.push(e.duration))).observe({ type: "longtask", buffered: true });
    });
    await page.goto(`${baseUrl()}/storyboard`);
    await expect.poll(() => scenes().count(), { timeout: 60_000, interval: 50 }).toBe(SCENES);
    const firstRenderMs = await page.evaluate(() => performance.now());
    await page.getByText(new RegExp(`^Storyboard · ${SCENES} scenes · about [0-9:]+ · 16:9$`)).waitFor();
    await page.waitForTimeout(1_000);
    const longTasks = await page.evaluate(() => (window as unknown as { longTasks: number[] }).longTasks);
    const longest = Math.max(0, ...longTasks);
    console.info(
      `storyboard with ${SCENES} cards: all cards in the DOM ${Math.round(firstRenderMs)} ms after navigation; ` +
        `${longTasks.length} long tasks, longest ${Math.round(longest)} ms, total ${Math.round(longTasks.reduce((a, b) => a + b, 0))} ms`,
    );
    expect(firstRenderMs).toBeLessThan(FIRST_RENDER_MS);
    expect(longest).toBeLessThan(LONGEST_TASK_MS);
  }, 120_000);

  it("reaches every card's title by scrolling, and scrolls without long frames", async () => {
    // Scroll the whole page top to bottom in steps, one per animation frame, timing the frames.
    const frames = await page.evaluate(async () => {
      window.scrollTo(0, 0);
      const gaps: number[] = [];
      let last = performance.now();
      const end = document.documentElement.scrollHeight - window.innerHeight;
      for (let y = 0; y <= end; y += 120) {
        window.scrollTo(0, y);
        await new Promise((r) => requestAnimationFrame(r));
        const now = performance.now();
        gaps.push(now - last);
        last = now;
      }
      gaps.sort((a, b) => a - b);
      return { count: gaps.length, median: gaps[Math.floor(gaps.length / 2)]!, p95: gaps[Math.floor(gaps.length * 0.95)]!, max: gaps.at(-1)!, height: end };
    });
    console.info(`scrolling ${frames.height} px in ${frames.count} frames: median ${frames.median.toFixed(1)} ms, 95th percentile ${frames.p95.toFixed(1)} ms, longest ${frames.max.toFixed(1)} ms`);
    expect(frames.count).toBeGreaterThan(SCENES / 4);
    expect(frames.p95).toBeLessThan(SCROLL_FRAME_P95_MS);

    for (const n of [1, 2, 60, 119, 120, 121, 180, 239, SCENES]) {
      const card = page.locator(`article[aria-label='Scene ${n}']`);
      await card.scrollIntoViewIfNeeded();
      const title = card.getByText(new RegExp(`^Scene ${n} · 15\\.0 s$`));
      expect(await title.isVisible(), `scene ${n}`).toBe(true);
      const box = (await title.boundingBox())!;
      expect(box.y >= 0 && box.y + box.height <= 900, `scene ${n} in view`).toBe(true);
    }
    // every card's title is in the page, in order
    const titles = await scenes().evaluateAll((cards) => cards.map((c) => c.getAttribute("aria-label")));
    expect(titles).toEqual(Array.from({ length: SCENES }, (_, i) => `Scene ${i + 1}`));
  }, 120_000);

  it("edits the voiceover of a card in the middle: the editor opens fast and Save keeps the text", async () => {
    const card = page.locator("article[aria-label='Scene 120']");
    await card.scrollIntoViewIfNeeded();
    const opened = performance.now();
    await card.getByRole("button", { name: "Edit voiceover" }).click();
    const editor = card.getByRole("textbox", { name: "Voiceover" });
    await editor.waitFor();
    const openMs = performance.now() - opened;
    await editor.fill("Scene 120, edited: the parrotfish grind coral into white sand.");
    await card.getByRole("button", { name: "Save" }).click();
    await card.getByText("Scene 120, edited: the parrotfish grind coral into white sand.").waitFor();
    console.info(`editing scene 120 of ${SCENES}: editor open ${Math.round(openMs)} ms after the click`);
    expect(openMs).toBeLessThan(EDIT_OPEN_MS);
    // the card shows the edit at once, while the save is on its way (a busy machine took longer than one query)
    await expect
      .poll(async () => (await prisma.storyboardCell.findFirstOrThrow({ where: { cellIndex: 119, storyboardId } })).voiceoverText, { timeout: 30_000 })
      .toBe("Scene 120, edited: the parrotfish grind coral into white sand.");
    // its neighbours are untouched
    expect(await page.locator("article[aria-label='Scene 121']").getByText("Scene 121 of the reef").count()).toBe(1);
  }, 120_000);
});
