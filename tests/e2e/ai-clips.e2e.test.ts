// AI clips in Chromium (issue 50), against the local Runway and Veo fakes the test app is pointed at: the creator
// saves a Runway key and a monthly budget in Settings, opens "Animate" on a seeded 3-scene storyboard, sees the
// estimate per scene and for the video before anything starts, animates two scenes, and sees the clips on their
// cards, in the live preview, and what they cost. Then with Veo (a Gemini key, the budget lowered; issue 55's path):
// a run over what is left is not offered (the panel says why, by the server's own rule), and the one scene that fits
// is animated. The Settings card and the panel (before, over budget and after) are photographed.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
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

const RUNWAY_KEY = "runway-e2e-key-0123456789";
// the Veo fake's key (tests/fakes/ai-clips-server.ts), saved as the creator's Gemini key
const GEMINI_KEY = "AIzaSy-e2e-veo-key-0123456789";
const shots = process.env.SCREENSHOTS_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), "ai-clips-e2e-"));
let browser: Browser;
let page: Page;
let projectId: string;

beforeAll(async () => {
  browser = await launchChromium();
  page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  const email = `clips-${Date.now()}@example.com`;
  await signIn(page, { email, name: "Ada Animate" });
  const user = await prisma.user.findUniqueOrThrow({ where: { email } });
  const title = "Tides";
  const project = await prisma.project.create({
    data: { userId: user.id, title, topic: "why the sea rises", resolution: "landscape", durationSeconds: 30, script: { create: { status: "completed", text: "Tides.", wordCount: 1, targetWords: 75 } } },
  });
  projectId = project.id;
  const storyboard = await prisma.storyboard.create({ data: { projectId: project.id, title, status: "completed" } });
  const audio = await saveMedia({ userId: user.id, projectId: project.id, kind: "voiceover", data: toneWav(3, 330), mimeType: "audio/wav", extension: "wav", durationSeconds: 3 });
  const lines = ["The moon pulls on the ocean.", "The water climbs the beach.", "Six hours later, it falls away."];
  for (const [cellIndex, line] of lines.entries()) {
    const image = await saveMedia({ userId: user.id, projectId: project.id, kind: "image", data: await sceneImage(cellIndex, 640, 360), mimeType: "image/png", extension: "png", width: 640, height: 360 });
    await prisma.storyboardCell.create({
      data: { storyboardId: storyboard.id, cellIndex, imagePrompt: `tides, scene ${cellIndex + 1}`, voiceoverText: line, imageUrl: mediaUrl(image), imageFileId: image.id, audioUrl: mediaUrl(audio), audioFileId: audio.id, estimatedDuration: 3, audioDuration: 3 },
    });
  }
  await prisma.user.update({ where: { id: user.id }, data: { currentProjectId: project.id } });
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await prisma.$disconnect();
});

describe("Animate on the storyboard", () => {
  it("shows the estimate, then the clips, then the spend", { timeout: 240_000 }, async () => {
    // Settings: the Runway key and a monthly budget
    await page.goto(`${baseUrl()}/settings`);
    await page.getByLabel("Runway API key").fill(RUNWAY_KEY);
    await page.getByLabel("Monthly budget (US$)").fill("5");
    await page.getByRole("button", { name: "Save AI clip settings" }).click();
    await page.getByText("Monthly budget: $5.00.").first().waitFor();
    const card = page.locator("div.rounded-xl").filter({ has: page.getByRole("heading", { name: "AI Clips" }) }).last();
    await card.scrollIntoViewIfNeeded();
    await card.screenshot({ path: path.join(shots, "ai-clips-settings-card.png") });

    // the storyboard: Animate shows the estimate per scene and for the video before anything starts
    await page.goto(`${baseUrl()}/storyboard`);
    await page.getByRole("button", { name: "Animate", exact: true }).click();
    await page.getByLabel("Service").selectOption("runway");
    const estimate = page.getByTestId("clip-estimate");
    // 3 s scenes: Runway's 5 s clips at 5 cents a second
    await expect.poll(() => estimate.textContent()).toContain("This video15 s$0.75");
    await page.getByRole("checkbox", { name: "Scene 2" }).uncheck();
    const start = page.getByRole("button", { name: "Animate 2 scenes for $0.50" });
    await start.waitFor();
    await expect.poll(() => estimate.textContent()).toContain("Monthly budget $5.00: $0.00 spent, $5.00 left.");
    const panel = page.locator("section[aria-labelledby='animate-title']");
    await panel.screenshot({ path: path.join(shots, "ai-clips-animate-estimate.png") });
    expect(await prisma.clipGeneration.count({ where: { projectId } })).toBe(0);

    await start.click();
    // the clips on their cards (the fake's tasks take two status checks, 5 s apart), then the spend
    // each generation's cost counts from the moment Runway accepts it; the list says when each clip is done
    // (the two clips are made one after the other, each fitted to its scene by ffmpeg: on a loaded machine about 45 s each)
    await page.getByTestId("clip-spend").getByText("Scene 3: 5 s, $0.25 (succeeded)").waitFor({ timeout: 180_000 });
    await page.getByTestId("clip-spend").getByText("Spent on this video: $0.50").waitFor();
    const cells = await prisma.storyboardCell.findMany({ where: { storyboard: { projectId } }, orderBy: { cellIndex: "asc" } });
    expect(cells.map((c) => Boolean(c.clipUrl))).toEqual([true, false, true]);
    await expect.poll(() => page.locator("article video").count(), { timeout: 20_000 }).toBe(2);
    await expect.poll(() => page.getByTestId("clip-spend").textContent()).toContain("Scene 1: 5 s, $0.25 (succeeded)");
    await panel.screenshot({ path: path.join(shots, "ai-clips-animate-spent.png") });
    await page.screenshot({ path: path.join(shots, "ai-clips-storyboard-1280x900.png"), fullPage: true });
  });

  it("marks a scene whose picture does not show what is said, on the panel and on its card", { timeout: 60_000 }, async () => {
    // scene 2 (still a picture): drawn offline for words that name nothing the illustrator can draw
    await prisma.storyboardCell.updateMany({ where: { storyboard: { projectId }, cellIndex: 1 }, data: { imageMadeBy: "Offline illustration", voiceoverText: "Nobody knows exactly when it happens again." } });
    await page.goto(`${baseUrl()}/storyboard`);
    await page.getByRole("button", { name: "Check scenes" }).click();
    const summary = page.getByTestId("scene-check-summary");
    // the two animated scenes are clips: without a Gemini key nothing can look at them
    await expect.poll(() => summary.textContent(), { timeout: 30_000 }).toBe("0 of 1 checked scene shows what is said (2 not checked)");
    await page.getByTestId("scene-check-mark-1").getByText(/has a picture offline/).waitFor();
    await page.getByRole("article", { name: "Scene 2" }).getByTestId("scene-check-badge").waitFor();
    await page.locator("section[aria-labelledby='scene-check-title']").screenshot({ path: path.join(shots, "scene-check-panel.png") });
    await page.getByRole("article", { name: "Scene 2" }).screenshot({ path: path.join(shots, "scene-check-card.png") });
  });

  it("with Veo: a run over what is left of the budget is not offered, and the panel says why; one that fits is made", { timeout: 180_000 }, async () => {
    // the Gemini key (Veo's), and the monthly budget lowered to $1.50: $0.50 is spent, $1.00 left
    await page.goto(`${baseUrl()}/settings`);
    await page.locator("#geminiApiKey").fill(GEMINI_KEY);
    await page.getByRole("button", { name: "Save API Keys" }).click();
    await page.getByText("API Keys Saved").first().waitFor();
    await page.getByLabel("Monthly budget (US$)").fill("1.5");
    await page.getByRole("button", { name: "Save AI clip settings" }).click();
    await page.getByText("Monthly budget: $1.50.").first().waitFor();

    await page.goto(`${baseUrl()}/storyboard`);
    await page.getByRole("button", { name: "Animate", exact: true }).click();
    await page.getByLabel("Service").selectOption("veo");
    const estimate = page.getByTestId("clip-estimate");
    // 3 s scenes: Veo 3.1 Fast's 4 s clips at 15 cents a second
    await expect.poll(() => estimate.textContent()).toContain("This video12 s$1.80");
    await expect.poll(() => estimate.textContent()).toContain("Monthly budget $1.50: $0.50 spent, $1.00 left.");
    const before = await prisma.clipGeneration.count({ where: { projectId } });
    // the panel does not offer what the server would refuse (one rule, decision 270): the button is off, and says why
    const overBudget = page.getByTestId("clip-over-budget");
    await overBudget.getByText(/would cost \$1\.80, and \$1\.00 is left of your monthly AI clip budget/).waitFor({ timeout: 15_000 });
    expect(await page.getByRole("button", { name: "Animate 3 scenes for $1.80" }).isDisabled()).toBe(true);
    await page.locator("section[aria-labelledby='animate-title']").screenshot({ path: path.join(shots, "ai-clips-over-budget.png") });
    expect(await prisma.clipGeneration.count({ where: { projectId } })).toBe(before);

    // only the still scene fits: $0.60 of the $1.00 left
    for (const scene of ["Scene 1", "Scene 3"]) await page.getByRole("checkbox", { name: scene }).uncheck();
    await expect.poll(() => overBudget.count()).toBe(0);
    await page.getByRole("button", { name: "Animate 1 scene for $0.60" }).click();
    const spend = page.getByTestId("clip-spend");
    await spend.getByText("Scene 2: 4 s, $0.60 (succeeded)").waitFor({ timeout: 120_000 });
    await spend.getByText("Spent on this video: $1.10").waitFor();
    // $0.40 is left now: another $0.60 clip is not offered
    await page.getByRole("checkbox", { name: "Scene 1" }).check();
    await page.getByRole("checkbox", { name: "Scene 2" }).uncheck();
    await overBudget.getByText(/would cost \$0\.60, and \$0\.40 is left of your monthly AI clip budget of \$1\.50/).waitFor();
    expect(await page.getByRole("button", { name: "Animate 1 scene for $0.60" }).isDisabled()).toBe(true);
    const cells = await prisma.storyboardCell.findMany({ where: { storyboard: { projectId } }, orderBy: { cellIndex: "asc" } });
    expect(cells.map((c) => Boolean(c.clipUrl))).toEqual([true, true, true]);
    const veo = await prisma.clipGeneration.findMany({ where: { projectId, provider: "veo" } });
    expect(veo.map((g) => [g.cellIndex, g.seconds, g.costCents, g.status])).toEqual([[1, 4, 60, "succeeded"]]);
    await expect.poll(() => page.locator("article video").count(), { timeout: 20_000 }).toBe(3);
    await page.locator("section[aria-labelledby='animate-title']").screenshot({ path: path.join(shots, "ai-clips-veo-spent.png") });
  });
});
