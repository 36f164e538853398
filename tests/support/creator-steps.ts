// The steps a creator takes from /create to a rendered video, in Chromium, written once for the browser tests that
// take them (issue 55, decision 269): /create filled with a topic for the template's sample draft or with a script of
// the creator's own, the storyboard generated, Generate All with its summary, and the render. Each test keeps what it
// checks and photographs between the steps; the steps themselves (and their waits) are the same everywhere.
import type { Page } from "playwright-core";
import { expect } from "vitest";
import { DURATION_RULES, type ResolutionValue } from "~/lib/video-format";
import { baseUrl } from "./browser";

/** The format cards of /create, by the text a creator clicks. */
const FORMATS = { "9:16 Shorts": "9:16", "16:9 Landscape": "16:9" } as const satisfies Record<string, ResolutionValue>;
export type CreateFormat = keyof typeof FORMATS;

/** The page's React has taken over its server HTML: a click or a fill before that could be lost. */
export const hydrated = (page: Page) => page.waitForFunction(() => Object.keys(document).some((k) => k.startsWith("__reactContainer")), undefined, { timeout: 30_000 });

/**
 * "Use my own script" with `script` pasted whole (parts split by `---` lines). With no text model /create opens on
 * the outline (issue 48), so the one-text editor is opened first when it is not showing yet.
 */
export async function pasteOwnScript(page: Page, script: string): Promise<void> {
  await page.getByText("Use my own script").click();
  const editor = page.getByRole("textbox", { name: "Your script", exact: true });
  await expect
    .poll(async () => {
      if (!(await editor.count())) await page.getByRole("button", { name: "Edit as one text" }).click();
      return editor.count();
    })
    .toBe(1);
  await editor.fill(script);
}

/** The duration slider set to `seconds` with the keyboard, from the format's shortest (the form may be prefilled). */
export async function setDuration(page: Page, format: CreateFormat, seconds: number): Promise<void> {
  const rules = DURATION_RULES[FORMATS[format]];
  const steps = (seconds - rules.min) / rules.step;
  if (!Number.isInteger(steps) || steps < 0 || seconds > rules.max) throw new Error(`${seconds} s is not on the ${format} slider`);
  const slider = page.getByRole("slider", { name: "Duration in seconds" });
  await slider.focus();
  await slider.press("Home");
  for (let i = 0; i < steps; i++) await slider.press("ArrowRight");
  await expect.poll(() => slider.getAttribute("aria-valuenow")).toBe(String(seconds));
}

/**
 * A new video's /create form, filled and not yet sent: its title; the creator's own `script`, or else the template's
 * sample draft (no text model in the tests, issue 48) written about `topic`; the format; and `seconds` when given
 * (the form's default otherwise). A `topic` beside a `script` is typed in too.
 */
export async function fillCreateForm(page: Page, video: { title: string; format: CreateFormat; topic?: string; script?: string; seconds?: number }): Promise<void> {
  await page.goto(`${baseUrl()}/create`);
  await hydrated(page);
  await page.getByLabel("Title").fill(video.title);
  if (video.script !== undefined) await pasteOwnScript(page, video.script);
  if (video.topic !== undefined) await page.getByLabel("Topic").fill(video.topic);
  await page.getByText(video.format).click();
  if (video.seconds !== undefined) await setDuration(page, video.format, video.seconds);
  if (video.script === undefined) await page.getByText("Sample draft (template)").click();
}

/** Create Video on a filled form: the script page, where the script is written (or the creator's own is shown). */
export async function createVideo(page: Page): Promise<void> {
  await page.getByRole("button", { name: "Create Video" }).click();
  await page.waitForURL(`${baseUrl()}/script`);
}

/** Generate Storyboard once the script is there (it may still be being written), then the storyboard's first card. */
export async function generateStoryboard(page: Page, timeout = 120_000): Promise<void> {
  await page.getByRole("button", { name: "Generate Storyboard" }).click({ timeout });
  await page.waitForURL(`${baseUrl()}/storyboard`);
  await page.getByRole("article", { name: "Scene 1", exact: true }).waitFor({ timeout });
}

/**
 * Generate All Content, its summary toast (read before the page reloads itself, 2 s after the run ends), and the
 * reloaded page with every scene's media. Answers with the summary, "N images and M voiceovers generated.".
 * `timeout`: for the whole run (a storyboard under load may take minutes).
 */
export async function generateAllContent(page: Page, timeout = 180_000): Promise<string> {
  const reloaded = page.waitForEvent("load", { timeout });
  await page.getByRole("button", { name: "Generate All Content" }).click({ timeout: 90_000 });
  const toast = page.locator("li[data-state=open]").filter({ hasText: "All content generated" });
  const summary = toast.getByText(/^\d+ images and \d+ voiceovers generated\.$/);
  await summary.waitFor({ timeout });
  const text = (await summary.textContent()) ?? "";
  await reloaded;
  await page.getByText("Every scene has its image and voiceover.").waitFor({ timeout: 60_000 });
  return text;
}

/** The render page's Render Video, at `quality` when given, until the video is rendered. */
export async function renderVideo(page: Page, { timeout = 240_000, quality }: { timeout?: number; quality?: "720p" } = {}): Promise<void> {
  await page.goto(`${baseUrl()}/render`);
  await page.getByRole("heading", { name: "Ready to Render" }).waitFor({ timeout: 30_000 });
  if (quality) await page.getByRole("radio", { name: quality }).check();
  await page.getByRole("button", { name: "Render Video" }).click();
  await page.getByRole("heading", { name: "Video Rendered Successfully" }).waitFor({ timeout });
}
