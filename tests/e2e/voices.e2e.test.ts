// Issue 24 in the browser: /create's language, voice and speed, the narration on /script, and the settings voice
// list grouped by language. Screenshots of /create and the voice pickers at 1280x800 and 390x844 go to
// .data/screenshots/voices.
import fs from "node:fs";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { baseUrl, launchChromium } from "../support/browser";
import { signIn } from "../support/browser-auth";

const SHOTS = path.resolve(".data/screenshots/voices");
let browser: Browser;
let page: Page;

beforeAll(async () => {
  fs.mkdirSync(SHOTS, { recursive: true });
  browser = await launchChromium();
  page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
  await signIn(page, { email: `voices-${Date.now()}@example.com`, name: "Camille Créatrice" });
});
afterAll(async () => {
  await browser?.close();
});

const shot = (name: string, fullPage = true) => page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage });

describe("language, voice and speed on /create", () => {
  it("picks a French voice for a French project, sets the speed, and /script shows the narration", async () => {
    await page.goto(`${baseUrl()}/create`);
    await page.getByLabel("Title").fill("Le secret des abeilles");
    await page.getByLabel("Topic").fill("Comment les abeilles fabriquent le miel et pollinisent les fleurs");
    await page.getByText("9:16 Shorts").click();

    const voice = page.getByLabel("Voice", { exact: true });
    // English's offline default is the neural voice npm test installs (decision 205), its licence beside the picker
    await expect.poll(() => voice.locator("option").first().textContent(), { timeout: 30_000 }).toBe("Automatic: Joe, medium (neural, offline)");
    await expect.poll(() => page.locator("[data-voice-licence]").textContent()).toContain("Licence of Joe, medium (neural, offline): Voice data CC0");
    await page.getByLabel("Language").selectOption("fr");
    await expect.poll(() => voice.locator("option").first().textContent(), { timeout: 30_000 }).toBe("Automatic: French (eSpeak NG)");
    await expect.poll(() => page.locator("[data-no-neural-voice]").textContent()).toContain("No neural voice is installed for French");
    // the voice list is grouped by language, the project's first
    const groups = await voice.locator("optgroup").evaluateAll((els) => els.map((e) => e.getAttribute("label")));
    expect(groups.slice(0, 2)).toEqual(["French (Français)", "English"]);
    expect(groups).toContain("German (Deutsch)");
    await voice.selectOption("espeak:fr+f3");

    const thumb = page.getByRole("slider", { name: "Voice speed" });
    await thumb.focus();
    for (let i = 0; i < 4; i++) await page.keyboard.press("ArrowRight");
    await expect.poll(() => page.locator("output").filter({ hasText: /x$/ }).textContent(), { timeout: 30_000 }).toBe("1.2x");
    await shot("create-1280x800");
    await page.setViewportSize({ width: 390, height: 844 });
    await shot("create-390x844");
    await page.setViewportSize({ width: 1280, height: 800 });

    // no text model in the tests: the template's sample draft writes the script (issue 48)
    await page.getByText("Sample draft (template)").click();
    await page.getByRole("button", { name: "Create Video" }).click();
    await page.waitForURL(`${baseUrl()}/script`);
    const summary = page.getByTestId("narration-summary");
    await expect.poll(() => summary.textContent(), { timeout: 30_000 }).toBe("Narration: French (Français) · voice French, female (eSpeak NG) · speed 1.2x");
    expect(await page.getByRole("note").count()).toBe(0);
    const script = page.getByTestId("script-text");
    await script.waitFor({ timeout: 120_000 });
    expect(await script.textContent()).toMatch(/\b(?:les|des|du|la|le)\b/);
    await shot("script-french-1280x800");
  });

  it("tells a German project that the offline writer writes English, and which providers write German", async () => {
    await page.goto(`${baseUrl()}/create`);
    await page.getByLabel("Language").selectOption("de");
    await page.getByText("The offline script writer writes English, French and Spanish only").waitFor();
    await page.getByLabel("Title").fill("Bienen");
    await page.getByLabel("Topic").fill("Wie Bienen Honig machen");
    await page.getByText("9:16 Shorts").click();
    // no text model in the tests: the template's sample draft writes the script (issue 48)
    await page.getByText("Sample draft (template)").click();
    await page.getByRole("button", { name: "Create Video" }).click();
    await page.waitForURL(`${baseUrl()}/script`);
    const note = page.getByRole("note");
    await note.waitFor();
    expect(await note.textContent()).toContain("so this German project's script is in English. For a script in German, save a Gemini API key or an OpenAI-compatible model in Settings");
    expect(await page.getByTestId("narration-summary").textContent()).toContain("voice German (eSpeak NG)");
    await shot("script-german-note-1280x800");
  });
});

describe("the settings voice list", () => {
  it("groups the offline voices by language inside the spec's groups", async () => {
    for (const [width, height] of [
      [1280, 800],
      [390, 844],
    ] as const) {
      await page.setViewportSize({ width, height });
      await page.goto(`${baseUrl()}/settings`);
      const trigger = page.getByRole("combobox", { name: "Narration voice" });
      await expect.poll(() => trigger.isEnabled(), { timeout: 30_000 }).toBe(true);
      await trigger.click();
      await page.getByText("--- Premade Voices ---").waitFor();
      const labels = await page.locator("[role=listbox] [data-voice-heading]").allTextContents();
      expect(labels.slice(0, 3)).toEqual(["--- Premade Voices ---", "English", "Arabic (العربية)"]);
      expect(labels).toContain("French (Français)");
      expect((await page.getByRole("option").allTextContents())[0]).toBe("SLT (offline) [American]");
      await shot(`settings-voice-picker-${width}x${height}`, false);
      await page.keyboard.press("Escape");
    }
  });
});

/** Seconds of sound in a PCM WAV: its data chunk's size over its byte rate (fmt chunk). */
function wavSeconds(wav: Buffer): number {
  expect(wav.subarray(0, 4).toString("ascii")).toBe("RIFF");
  expect(wav.subarray(8, 12).toString("ascii")).toBe("WAVE");
  let byteRate = 0;
  for (let at = 12; at + 8 <= wav.length; ) {
    const id = wav.subarray(at, at + 4).toString("ascii");
    const size = wav.readUInt32LE(at + 4);
    if (id === "fmt ") byteRate = wav.readUInt32LE(at + 16);
    if (id === "data") return Math.min(size, wav.length - at - 8) / byteRate;
    at += 8 + size + (size % 2);
  }
  throw new Error("no data chunk in the WAV");
}

/** Plays the sample beside the picker and waits until the <audio> element has played part of it (or all). */
async function playSample(voiceName: string) {
  const button = page.getByRole("button", { name: `Play sample of ${voiceName}` });
  await button.waitFor({ timeout: 30_000 });
  const answer = page.waitForResponse((r) => r.url().includes("/api/voice-sample?"), { timeout: 120_000 });
  await button.click();
  const response = await answer;
  expect(response.status()).toBeLessThan(300);
  expect(response.headers()["content-type"]).toBe("audio/wav");
  const audio = page.locator("audio[data-voice-sample]");
  // it plays: the element reaches its end or its clock moves on
  await expect
    .poll(() => audio.evaluate((el: HTMLAudioElement) => ({ ended: el.ended, time: el.currentTime })).then((s) => s.ended || s.time > 0.3), { timeout: 60_000 })
    .toBe(true);
  const duration = await audio.evaluate((el: HTMLAudioElement) => el.duration);
  expect(duration).toBeGreaterThan(1.5);
  expect(duration).toBeLessThan(15);
  // the bytes a creator hears: a WAV of a sentence, seconds long
  const src = (await audio.getAttribute("src"))!;
  const wav = Buffer.from(await (await page.request.get(`${baseUrl()}${src}`)).body());
  expect(wavSeconds(wav)).toBeGreaterThan(1.5);
  return { src, seconds: wavSeconds(wav), duration };
}

describe("the voice sample beside the pickers (issue 48)", () => {
  it("plays the neural voice's sample on /create, its licence beside it, and reuses the stored sample", async () => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`${baseUrl()}/create`);
    // the page keeps the last project's language (German, above): back to English
    await page.getByLabel("Language").selectOption("en");
    const voice = page.getByLabel("Voice", { exact: true });
    await expect.poll(() => voice.locator("option").first().textContent(), { timeout: 30_000 }).toBe("Automatic: Joe, medium (neural, offline)");
    await expect.poll(() => page.locator("[data-voice-licence]").textContent()).toContain("Licence of Joe, medium (neural, offline): Voice data CC0");
    const first = await playSample("Joe, medium (neural, offline)");
    expect(first.src).toBe("/api/voice-sample?voiceId=piper%3Aen_US-joe-medium");
    await shot("create-voice-sample-1280x800", false);
    // a second play is the stored sample, byte for byte the same length
    const again = await page.request.get(`${baseUrl()}${first.src}`);
    expect(again.headers()["content-type"]).toBe("audio/wav");
    expect(wavSeconds(Buffer.from(await again.body()))).toBe(first.seconds);
    // another voice, another sentence: eSpeak NG's French
    await page.getByLabel("Language").selectOption("fr");
    await voice.selectOption("espeak:fr+f3");
    const french = await playSample("French, female (eSpeak NG)");
    expect(french.src).toBe("/api/voice-sample?voiceId=espeak%3Afr%2Bf3");
  });

  it("plays the chosen voice's sample in Settings, with the neural voice's licence", async () => {
    await page.goto(`${baseUrl()}/settings`);
    const trigger = page.getByRole("combobox", { name: "Narration voice" });
    await expect.poll(() => trigger.isEnabled(), { timeout: 30_000 }).toBe(true);
    await trigger.click();
    await page.getByRole("option", { name: /^Joe, medium \(neural, offline\)/ }).click();
    await expect.poll(() => page.locator("[data-voice-licence]").textContent()).toContain("Licence of Joe, medium (neural, offline): Voice data CC0");
    await playSample("Joe, medium (neural, offline)");
    await shot("settings-voice-sample-1280x800", false);
  });
});
