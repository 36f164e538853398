// Issue 51 in Chromium against the built app: from the dashboard, a 3-minute 16:9 video's "Shorts and versions" page
// shows its three suggested runs; the creator makes a Short of each (issue 55's path) and a Spanish version (machine
// translated, proofreading first) and the dashboard shows all four under their source. Screenshots at 1280x800 and
// 390x844, and a frame of the first Short's first picture (the hook over the reframed subject).
import fs from "node:fs";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { baseUrl, launchChromium } from "../support/browser";
import { signIn } from "../support/browser-auth";
import { screenshotsDir, shootBoth } from "../support/screenshots";

// the test process writes the seeded project into the app's own database and media folder
process.env.DATABASE_URL = process.env.E2E_DATABASE_URL;
process.env.DATA_DIR = process.env.E2E_DATA_DIR;
const { prisma } = await import("~/core/db.server");
const { mediaUrl, readMedia, saveMedia } = await import("~/core/storage.server");
const { renderSceneImage } = await import("~/providers/image/offline-scene.server");
const { pickStoryboardSubjects } = await import("~/providers/image/scene-subjects.server");
// after the environment above: the fixture loads the database module
const { toneWav } = await import("../fixtures/render-project");

let browser: Browser;
let page: Page;
const email = `outputs-${Date.now()}@example.com`;
const openToast = () => page.locator("li[data-state=open]");

const TITLE = "The octopus and its three hearts";
// a 3-minute video: twelve scenes of 14.5 s, so a 60 s Short holds three of them and the page suggests three runs
const LINES = [
  ["Why does an octopus have three hearts? Two pump blood through the gills.", "octopus heart"],
  ["The octopus also has blue blood, carried by copper.", "blue octopus"],
  ["Each arm of an octopus can taste on its own.", "octopus arm"],
  ["How does an octopus hide from a shark? It matches the rocks.", "shark and rocks"],
  ["Its skin holds millions of colour cells.", "octopus skin"],
  ["It can change colour in a fraction of a second.", "colour change"],
  ["What is the smallest gap an octopus can squeeze through? One as wide as its beak.", "octopus beak"],
  ["An octopus has no bones at all.", "soft octopus"],
  ["It pours itself through cracks like water.", "octopus in a crack"],
  ["Why do octopuses collect shells? They build little fortresses.", "shell fortress"],
  ["Some carry coconut halves as portable shelters.", "coconut shell"],
  ["An octopus lives only one or two years.", "old octopus"],
];
const SCENES = LINES.map(([text, prompt]) => ({ text: text!, prompt: prompt!, seconds: 14.5 }));

/** A finished 16:9 video's storyboard: offline pictures drawn as the storyboard draws them, voiceovers as tones. */
async function seedSource(userId: string) {
  const project = await prisma.project.create({ data: { userId, title: TITLE, topic: "Octopus biology", resolution: "landscape", durationSeconds: 180, language: "en", imageSource: "offline" } });
  await prisma.script.create({ data: { projectId: project.id, status: "completed", targetWords: 450, wordCount: 130, text: SCENES.map((s) => s.text).join("\n\n") } });
  const storyboard = await prisma.storyboard.create({ data: { projectId: project.id, title: TITLE, status: "completed" } });
  const subjects = pickStoryboardSubjects(TITLE, SCENES.map((s) => ({ narration: s.text, prompt: s.prompt })));
  for (const [i, scene] of SCENES.entries()) {
    const art = await renderSceneImage(scene.prompt, "16:9", `${project.id}:${i}:${scene.prompt}`, scene.text, subjects[i]);
    const image = await saveMedia({ userId, projectId: project.id, kind: "image", mimeType: "image/png", extension: "png", data: art.image, width: art.width, height: art.height });
    const audio = await saveMedia({ userId, projectId: project.id, kind: "voiceover", mimeType: "audio/wav", extension: "wav", data: toneWav(scene.seconds, 220 + 40 * i), durationSeconds: scene.seconds });
    await prisma.storyboardCell.create({
      data: {
        storyboardId: storyboard.id,
        cellIndex: i,
        imagePrompt: scene.prompt,
        voiceoverText: scene.text,
        estimatedDuration: scene.seconds,
        audioDuration: scene.seconds,
        imageUrl: mediaUrl(image),
        imageFileId: image.id,
        audioUrl: mediaUrl(audio),
        audioFileId: audio.id,
        imageMadeBy: "Offline illustration",
      },
    });
  }
  return project;
}

let sourceId: string;

beforeAll(async () => {
  browser = await launchChromium();
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  page = await context.newPage();
  await signIn(page, { email, name: "Olive Outputs" });
  const user = await prisma.user.findUniqueOrThrow({ where: { email } });
  sourceId = (await seedSource(user.id)).id;
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await prisma.$disconnect();
});

describe("Shorts and versions from the dashboard", () => {
  it("makes three Shorts from the suggested runs of a 3-minute video and a Spanish version, all shown under their source", { timeout: 180_000 }, async () => {
    const closeToasts = async () => {
      for (const close of await page.locator("li[data-state=open]").getByRole("button", { name: "Close" }).all()) await close.click();
      await expect.poll(() => openToast().count()).toBe(0);
    };
    await page.goto(`${baseUrl()}/dashboard`);
    await page.getByRole("link", { name: "Shorts and versions" }).click();
    await page.waitForURL(`${baseUrl()}/projects/${sourceId}/outputs`);
    await page.getByRole("heading", { name: "Shorts from this video" }).waitFor();
    // three runs suggested, none overlapping; the question opens the first suggestion, picked already
    const suggestions = page.getByRole("button", { name: /^Scenes \d+–\d+ · / });
    await expect.poll(() => suggestions.count()).toBe(3);
    const first = page.getByRole("button", { name: /Scenes 1–\d/ });
    expect(await first.getAttribute("aria-pressed")).toBe("true");
    expect(await page.getByLabel("Opening line").inputValue()).toBe("Why does an octopus have three hearts?");
    await shootBoth(page, "shorts-versions-page");

    await page.getByLabel("Opening line").fill("Three hearts? Really?");
    await page.getByRole("button", { name: /Make Short/ }).click();
    await openToast().getByText("Short made").waitFor({ timeout: 60_000 });
    await page.getByText("Short · 9:16").waitFor();
    // the other two suggested runs, each with its own opening line
    for (const i of [1, 2]) {
      await closeToasts();
      await suggestions.nth(i).click();
      expect(await suggestions.nth(i).getAttribute("aria-pressed")).toBe("true");
      await page.getByRole("button", { name: /Make Short/ }).click();
      await openToast().getByText("Short made").waitFor({ timeout: 60_000 });
      await expect.poll(() => page.getByText("Short · 9:16").count()).toBe(i + 1);
    }
    await closeToasts();

    await page.getByLabel("Language", { exact: true }).selectOption("es");
    await page.getByRole("button", { name: "Make version" }).click();
    await openToast().getByText("Version made").waitFor({ timeout: 60_000 });
    await page.getByText("Version · Spanish (Español)").waitFor();
    // the toasts closed, so the picture shows the page (a toast sits over the header on a phone)
    await closeToasts();
    await shootBoth(page, "shorts-versions-made");

    const family = await prisma.project.findMany({ where: { sourceProjectId: sourceId }, orderBy: { createdAt: "asc" } });
    expect(family.map((p) => [p.derivedKind, p.resolution, p.language])).toEqual([
      ["short", "shorts", "en"],
      ["short", "shorts", "en"],
      ["short", "shorts", "en"],
      ["version", "landscape", "es"],
    ]);
    // each Short is its own run of the source's scenes, at most 60 s with its end card, none sharing a scene
    const runs = await Promise.all(
      family.slice(0, 3).map(async (p) => (await prisma.storyboardCell.findMany({ where: { storyboard: { projectId: p.id } }, orderBy: { cellIndex: "asc" } })).map((c) => c.voiceoverText)),
    );
    const used = runs.flatMap((texts) => texts.filter((t) => SCENES.some((s) => s.text === t)));
    expect(new Set(used).size).toBe(used.length);
    for (const texts of runs) expect(texts.filter((t) => SCENES.some((s) => s.text === t)).length).toBe(3);
    expect(family.map((p) => (p.derivedFrom as { hook?: string } | null)?.hook)).toEqual(["Three hearts? Really?", expect.any(String), expect.any(String), undefined]);
    // the Spanish version: every scene of the source, in Spanish
    const spanish = await prisma.storyboardCell.findMany({ where: { storyboard: { projectId: family[3]!.id } }, orderBy: { cellIndex: "asc" } });
    expect(spanish).toHaveLength(SCENES.length);
    expect(spanish[0]!.voiceoverText).toMatch(/\b(pulpo|corazones|tres)\b/i);
    // the Short's first picture, with its hook, for people to look at
    const firstCell = await prisma.storyboardCell.findFirstOrThrow({ where: { storyboard: { projectId: family[0]!.id }, cellIndex: 0 } });
    const file = await prisma.mediaFile.findUniqueOrThrow({ where: { id: firstCell.imageFileId! } });
    fs.writeFileSync(path.join(screenshotsDir(), "short-first-picture.png"), await readMedia(file));
    const endCell = await prisma.storyboardCell.findFirstOrThrow({ where: { storyboard: { projectId: family[0]!.id } }, orderBy: { cellIndex: "desc" } });
    fs.writeFileSync(path.join(screenshotsDir(), "short-end-card.png"), await readMedia(await prisma.mediaFile.findUniqueOrThrow({ where: { id: endCell.imageFileId! } })));

    await page.goto(`${baseUrl()}/dashboard`);
    const source = page.getByRole("list", { name: `Made from ${TITLE}` });
    await source.waitFor();
    expect(await source.textContent()).toContain("Short:");
    expect(await source.textContent()).toContain("Spanish (Español) version:");
    await expect.poll(() => page.getByText(`Short of “${TITLE}”`).count()).toBe(3);
    expect((await source.textContent())!.match(/Short:/g)).toHaveLength(3);
    await shootBoth(page, "shorts-versions-dashboard");
  });
});
