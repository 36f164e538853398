// The Thumbnail Generator in Chromium, with the offline providers: a one-scene video gets its image, then on
// /thumbnail the creator picks it, types a title, chooses a font and a size, generates, sees the preview,
// downloads a 1280x720 PNG, approves it, and finds it approved after a reload; /projects/{id} shows the same.
import fs from "node:fs";
import sharp from "sharp";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { baseUrl, launchChromium } from "../support/browser";
import { signIn } from "../support/browser-auth";

let browser: Browser;
let page: Page;
const openToast = () => page.locator("li[data-state=open]");
const SHOTS = process.env.THUMBNAIL_SCREENSHOTS_DIR;

beforeAll(async () => {
  browser = await launchChromium();
  const context = await browser.newContext({ acceptDownloads: true, viewport: { width: 1280, height: 1100 } });
  page = await context.newPage();
  await signIn(page, { email: `thumbs-${Date.now()}@example.com`, name: "Theo Thumbnail" });
});
afterAll(async () => {
  await browser?.close();
});

describe("the Thumbnail Generator", () => {
  it("needs a scene image: a new project has a storyboard scene whose image is generated", async () => {
    await page.goto(`${baseUrl()}/create`);
    await page.getByLabel("Title").fill("Secrets of the Deep Ocean");
    await page.getByLabel("Topic").fill("Creatures that glow in the dark water");
    await page.getByText("9:16 Shorts").click();
    const slider = page.getByRole("slider", { name: "Duration in seconds" });
    await slider.focus();
    for (let i = 0; i < 5; i++) await slider.press("ArrowLeft"); // 30 s -> 5 s: one scene
    // no text model in the tests: the template's sample draft writes the script (issue 48)
    await page.getByText("Sample draft (template)").click();
    await page.getByRole("button", { name: "Create Video" }).click();
    await page.getByRole("button", { name: "Generate Storyboard" }).click({ timeout: 90_000 });
    await page.waitForURL(`${baseUrl()}/storyboard`);
    await page.getByRole("button", { name: "Generate Image" }).first().click({ timeout: 90_000 });
    await page.getByRole("button", { name: "Regenerate Image" }).first().waitFor({ timeout: 90_000 });
  });

  it("generates a thumbnail, previews it, downloads a 1280x720 PNG and approves it", { timeout: 150_000 }, async () => {
    await page.goto(`${baseUrl()}/thumbnail`);
    await page.getByRole("heading", { name: "Thumbnail", exact: true }).waitFor();
    const scene = page.getByRole("button", { name: "Scene 1" });
    await scene.waitFor();
    expect(await scene.getAttribute("aria-pressed")).toBe("true");
    const title = page.getByLabel("Title text");
    expect(await title.inputValue()).toBe("Secrets of the Deep Ocean"); // the project's title to start with

    // without a title there is nothing to generate
    await title.fill("");
    expect(await page.getByRole("button", { name: "Generate Thumbnail" }).isDisabled()).toBe(true);
    await title.fill("They Glow in the Dark");

    await page.getByRole("combobox", { name: "Font" }).click();
    await page.getByRole("option", { name: "Luckiest Guy" }).click();
    const size = page.getByRole("slider", { name: "Font size" });
    await size.focus();
    for (let i = 0; i < 5; i++) await size.press("ArrowRight"); // 72 -> 92 px
    await page.getByText("Font size: 92px").waitFor();
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/thumbnail-form.png`, fullPage: true });

    await page.getByRole("button", { name: "Generate Thumbnail" }).click();
    await openToast().getByText("Thumbnail generated").waitFor({ timeout: 120_000 });
    const preview = page.getByRole("img", { name: "Thumbnail: They Glow in the Dark" });
    await preview.waitFor();
    await expect.poll(() => preview.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth), { timeout: 30_000 }).toBe(1280);
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/thumbnail-generated.png`, fullPage: true });

    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Download Thumbnail" }).click()]);
    expect(download.suggestedFilename()).toBe("they_glow_in_the_dark_thumbnail.png");
    const file = (await download.path())!;
    const meta = await sharp(fs.readFileSync(file)).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(["png", 1280, 720]);
    if (SHOTS) fs.copyFileSync(file, `${SHOTS}/thumbnail-download.png`);

    await page.getByRole("button", { name: "Approve Thumbnail" }).click();
    await openToast().getByText("Thumbnail approved").waitFor();
    await page.getByTestId("thumbnail-approved").waitFor();
    expect(await page.getByRole("button", { name: "Approved" }).isDisabled()).toBe(true);

    await page.reload();
    await page.getByTestId("thumbnail-approved").waitFor();
    expect(await page.getByRole("img", { name: "Thumbnail: They Glow in the Dark" }).count()).toBe(1);
    // the form comes back with the approved thumbnail's choices, which are now the creator's defaults too
    await page.getByText("Font size: 92px").waitFor();
    expect(await page.getByLabel("Title text").inputValue()).toBe("They Glow in the Dark");
    const config = await page.evaluate(async () => (await fetch("/api/config", { credentials: "include" })).json());
    expect(config).toMatchObject({ preferredThumbnailFont: "Luckiest Guy", preferredThumbnailFontSize: 92 });
  });

  it("the project area /projects/{id} shows the same thumbnail, with its back link to the project's upload page", async () => {
    const projectId = await page.evaluate(async () => {
      const response = await fetch("/api/projects", { credentials: "include" });
      const body = (await response.json()) as { projects?: { id: string; isCurrent: boolean }[] } | { id: string; isCurrent: boolean }[];
      const list = Array.isArray(body) ? body : (body.projects ?? []);
      return list.find((p) => p.isCurrent)?.id ?? list[0]?.id;
    });
    expect(projectId).toBeTruthy();
    await page.goto(`${baseUrl()}/projects/${projectId}`);
    await page.getByRole("heading", { name: "Secrets of the Deep Ocean" }).waitFor();
    expect(await page.getByRole("link", { name: "Back to Upload" }).getAttribute("href")).toBe(`/projects/${projectId}/upload`);
    await page.getByTestId("thumbnail-approved").waitFor();
    expect(await page.getByRole("combobox", { name: "Font" }).textContent()).toContain("Luckiest Guy");
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/project-area.png`, fullPage: true });

    await page.goto(`${baseUrl()}/projects/not-a-project-of-mine`);
    await page.getByRole("heading", { name: "Page Not Found" }).waitFor(); // another user's or a missing project
  });
});
