import fs from "node:fs";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { baseUrl, launchChromium } from "../support/browser";
import { signIn } from "../support/browser-auth";
import { shootBoth } from "../support/screenshots";
import { storedImageSize } from "../support/stored-image";

let browser: Browser;
let page: Page;

beforeAll(async () => {
  browser = await launchChromium();
  page = await browser.newPage();
  await signIn(page, {
    email: `storyteller-${Date.now()}@example.com`,
    name: "Sam Storyteller",
  });
});
afterAll(async () => {
  await browser?.close();
});

const scenes = () => page.locator("article[aria-label^='Scene ']");

describe("storyboard with offline providers", () => {
  it("turns a finished script into scene cards", async () => {
    await page.goto(`${baseUrl()}/create`);
    await page.getByLabel("Title").fill("Tiny Engines");
    await page
      .getByLabel("Topic")
      .fill("Why hummingbirds beat their wings so fast");
    await page.getByText("9:16 Shorts").click();
    // 15 s: three scenes of about five seconds
    const slider = page.getByRole("slider", { name: "Duration in seconds" });
    await slider.focus();
    for (let i = 0; i < 3; i++) await slider.press("ArrowLeft");
    // no text model in the tests: the template's sample draft writes the script (issue 48)
    await page.getByText("Sample draft (template)").click();
    await page.getByRole("button", { name: "Create Video" }).click();
    await page.waitForURL(`${baseUrl()}/script`);
    await page
      .getByRole("button", { name: "Generate Storyboard" })
      .click({ timeout: 90_000 });
    await page.waitForURL(`${baseUrl()}/storyboard`);
    await scenes().first().waitFor({ timeout: 90_000 });
    expect(await scenes().count()).toBe(3);
    expect(
      await page
        .getByRole("button", { name: "Generate All Content" })
        .isEnabled()
    ).toBe(true);
    // no scene has audio yet: no sequential player
    expect(
      await page.getByRole("button", { name: "Play storyboard audio" }).count()
    ).toBe(0);
  });

  it("edits a scene's voiceover text with Save, and Cancel leaves it as it was", async () => {
    const first = scenes().first();
    await first.getByRole("button", { name: "Edit voiceover" }).click();
    await first
      .getByLabel("Voiceover")
      .fill("Hummingbirds beat their wings up to eighty times a second.");
    await first.getByRole("button", { name: "Save" }).click();
    await first
      .getByText("Hummingbirds beat their wings up to eighty times a second.")
      .waitFor();
    // saved: the editor is closed again (the text above matches the editor box while the save still runs)
    await first.getByRole("button", { name: "Edit voiceover" }).waitFor();

    await first.getByRole("button", { name: "Edit image prompt" }).click();
    await first.getByLabel("Image prompt").fill("this text is thrown away");
    await first.getByRole("button", { name: "Cancel" }).click();
    expect(await first.getByText("this text is thrown away").count()).toBe(0);
  });

  it("Generate All Content fills every card with an image and audio, and the player plays the scenes in order", async () => {
    const reloaded = page.waitForEvent("load", { timeout: 120_000 });
    await page.getByRole("button", { name: "Generate All Content" }).click();
    // a summary when the run ends, then the page reloads after 2 s with every card's image and audio
    await page
      .locator("li[data-state=open]")
      .getByText("All content generated")
      .waitFor({ timeout: 120_000 });
    expect(
      await page.getByText("3 images and 3 voiceovers generated.").count()
    ).toBeGreaterThan(0);
    await reloaded;
    await page.getByText("Every scene has its image and voiceover.").waitFor();
    expect(
      await page.locator("article[aria-label^='Scene '] img").count()
    ).toBe(3);
    expect(
      await page.locator("article[aria-label^='Scene '] audio").count()
    ).toBe(3);
    // each stored image is a full 1080 px frame (the page shows a sized variant of it)
    const images = page.locator("article img");
    for (let i = 0; i < (await images.count()); i++) expect((await storedImageSize(images.nth(i)))[0]).toBe(1080);

    // play/pause toggles on the same scene; then it plays on through every scene and stops at the end
    await page.getByRole("button", { name: "Play storyboard audio" }).click();
    await page.getByText("Scene 1 of 3").waitFor();
    await page.getByRole("button", { name: "Pause storyboard audio" }).click();
    await page.getByRole("button", { name: "Play storyboard audio" }).click();
    expect(await page.getByText("Scene 1 of 3").count()).toBe(1);
    await page.getByText("Scene 2 of 3").waitFor({ timeout: 20_000 });
    await page.getByText("Scene 3 of 3").waitFor({ timeout: 20_000 });
    await page.getByText("Play all scenes").waitFor({ timeout: 20_000 });
    // stop resets to the start
    await page.getByRole("button", { name: "Play storyboard audio" }).click();
    await page.getByText("Scene 1 of 3").waitFor();
    await page.getByRole("button", { name: "Stop storyboard audio" }).click();
    await page.getByText("Play all scenes").waitFor();
    expect(
      await page.getByRole("link", { name: "Continue to Render" }).isVisible()
    ).toBe(true);

    // the live preview shows the same composition the renderer uses, with the scenes' images
    const preview = page.getByRole("region", { name: "Video preview" });
    // the page's last section: its code loads when it nears the screen
    await preview.scrollIntoViewIfNeeded();
    await preview.locator("img").first().waitFor();
    const previewImage = await preview
      .locator("img")
      .first()
      .getAttribute("src");
    expect(previewImage).toMatch(/\/api\/media\//);
    // and it plays: the time label moves past the first second
    // (the preview's own controls sit under the picture, not over its captions)
    await preview.getByRole("button", { name: "Play preview" }).click();
    await preview.getByRole("button", { name: "Pause preview" }).waitFor();
    await preview
      .getByText(/^0:0[1-9] \/ 0:\d\d$/)
      .waitFor({ timeout: 30_000 });
  });

  it("sends the scene cards in the page's first HTML, each image as sized WebP variants, and a phone loads a small one without a shift", async () => {
    // the server's HTML, before any script runs: every card with its image, never "Loading storyboard..."
    const html = await (await page.request.get(`${baseUrl()}/storyboard`)).text();
    for (const n of [1, 2, 3]) expect(html).toContain(`aria-label="Scene ${n}"`);
    expect(html).not.toContain("Loading storyboard...");
    expect(html).toMatch(/srcset="\/api\/media\/[\w-]+\?w=320 320w, [^"]*\?w=1280 1280w"/i);

    // a phone (390 px, 2x) without JavaScript draws the cards from that HTML; this 9:16 project's frames are drawn
    // 180 px wide (320 px high), 360 device pixels: the browser fetches the 480 px WebP variant, never the original
    const phone = await browser.newContext({ storageState: await page.context().storageState(), viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, javaScriptEnabled: false });
    const still = await phone.newPage();
    const media: { url: string; type: string | undefined }[] = [];
    still.on("response", (r) => {
      if (r.url().includes("/api/media/")) media.push({ url: r.url(), type: r.headers()["content-type"] });
    });
    await still.goto(`${baseUrl()}/storyboard`, { waitUntil: "load" });
    await still.locator("article[aria-label='Scene 1'] img").waitFor();
    const firstScene = html.match(/<article aria-label="Scene 1"[\s\S]*?<img[^>]* src="(\/api\/media\/[\w-]+)"/)?.[1];
    expect(firstScene).toBeTruthy();
    expect(media).toContainEqual({ url: `${baseUrl()}${firstScene}?w=480`, type: "image/webp" });
    expect(media.filter((m) => !m.url.includes("?w=") && m.type?.startsWith("image/"))).toEqual([]);
    await shootBoth(still, "storyboard-server-html");
    await phone.close();

    // with JavaScript, hydration changes nothing on screen: no layout shift while the page loads
    const live = await browser.newContext({ storageState: await page.context().storageState(), viewport: { width: 390, height: 844 }, deviceScaleFactor: 2 });
    const hydrated = await live.newPage();
    await hydrated.goto(`${baseUrl()}/storyboard`, { waitUntil: "networkidle" });
    await hydrated.getByRole("button", { name: "Generate All Content" }).waitFor();
    expect(await storedImageSize(hydrated.locator("article[aria-label='Scene 1'] img"))).toEqual([1080, 1920]);
    const shift = await hydrated.evaluate(
      () =>
        new Promise<number>((resolve) => {
          let sum = 0;
          new PerformanceObserver((list) => {
            for (const e of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[]) if (!e.hadRecentInput) sum += e.value;
          }).observe({ type: "layout-shift", buffered: true });
          setTimeout(() => resolve(sum), 500);
        }),
    );
    expect(shift).toBeLessThan(0.01);
    await live.close();
  });

  it("chooses the caption style, previews it live and remembers it", async () => {
    const shots = path.resolve(".data/screenshots/captions");
    fs.mkdirSync(shots, { recursive: true });
    const preview = page.getByRole("region", { name: "Video preview" });
    // the Player is loaded lazily: wait until it draws a scene, or the pause below finds nothing and it plays on
    // (the highlighted word then moves between finding it and measuring it)
    await preview.scrollIntoViewIfNeeded();
    await preview.locator("img").first().waitFor();
    await preview.hover();
    // the first test left it playing: pause it with the preview's own control, so the highlighted word holds still
    const pause = preview.getByRole("button", { name: "Pause preview" });
    if (await pause.isVisible()) await pause.click();
    // a 9:16 project starts with today's boxed captions at the bottom, size M
    const preset = preview.getByLabel("Captions");
    expect(await preset.inputValue()).toBe("boxed");
    expect(await preview.getByRole("combobox", { name: /^Position/ }).inputValue()).toBe("bottom");
    expect(
      await preview
        .getByRole("radio", { name: "Size M" })
        .getAttribute("aria-checked")
    ).toBe("true");

    // word highlight, at the top, large: the Player redraws at once with a yellow word
    const saved = page.waitForResponse(
      (r) =>
        r.url().endsWith("/api/caption-style") && r.request().method() === "PUT"
    );
    await preset.selectOption("highlight");
    expect((await saved).status()).toBe(200);
    const top = page.waitForResponse((r) => r.url().endsWith("/api/caption-style") && r.request().method() === "PUT");
    await preview.getByRole("combobox", { name: /^Position/ }).selectOption("top");
    expect((await top).status()).toBe(200);
    const large = page.waitForResponse(
      (r) =>
        r.url().endsWith("/api/caption-style") && r.request().method() === "PUT"
    );
    await preview.getByRole("radio", { name: "Size L" }).click();
    expect(await (await large).json()).toEqual({
      chosen: true,
      style: { preset: "highlight", position: "top", size: "large" },
    });
    const highlighted = preview.locator(
      "span[style*='color: rgb(255, 212, 0)']"
    );
    // held at a moment the first scene is speaking (on a busy machine the pause above can come after the end,
    // where no word is spoken and none is highlighted)
    await preview.getByRole("slider", { name: "Preview position" }).fill("15");
    await highlighted.first().waitFor();
    expect(await highlighted.count()).toBe(1);
    // the caption sits in the top part of the picture
    // the scene image's frame (overflow hidden) is the picture's area
    // measured until both boxes are there: the Player redraws its captions as the style changes
    await expect
      .poll(async () => {
        const player = await preview.locator("img").first().locator("..").boundingBox();
        const word = await highlighted.first().boundingBox();
        return !!word && !!player && word.y < player.y + player.height * 0.35;
      }, { timeout: 10_000, message: "the highlighted caption sits in the top third of the picture" })
      .toBe(true);
    await page.setViewportSize({ width: 1280, height: 800 });
    await preview.scrollIntoViewIfNeeded();
    await page.screenshot({
      path: path.join(shots, "storyboard-captions-1280x800.png"),
    });
    await page.setViewportSize({ width: 390, height: 844 });
    await preview.scrollIntoViewIfNeeded();
    await page.screenshot({
      path: path.join(shots, "storyboard-captions-390x844.png"),
    });

    // a reload shows the saved choice; None turns captions off in the preview
    await page.reload();
    await preview.scrollIntoViewIfNeeded();
    await preview.getByLabel("Captions").waitFor();
    expect(await preview.getByLabel("Captions").inputValue()).toBe("highlight");
    expect(await preview.getByRole("combobox", { name: /^Position/ }).inputValue()).toBe("top");
    await preview.getByLabel("Captions").selectOption("none");
    await expect
      .poll(() =>
        preview.locator("span[style*='color: rgb(255, 212, 0)']").count()
      )
      .toBe(0);
    expect(await preview.getByRole("combobox", { name: /^Position/ }).isDisabled()).toBe(true);
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it("gives one scene its own transition under Per scene, and a reload keeps it (decision 245)", async () => {
    await page.goto(`${baseUrl()}/storyboard`);
    // this 9:16 video cuts between scenes; each later scene follows the video until it has its own
    const between = page.getByLabel("Between scenes");
    expect(await between.inputValue()).toBe("none");
    await page.getByText("Per scene", { exact: true }).click();
    const second = page.getByRole("combobox", { name: "Scene 2's transition" });
    const third = page.getByRole("combobox", { name: "Scene 3's transition" });
    await second.waitFor();
    expect(await second.inputValue()).toBe("video");
    expect(await second.locator("option:checked").textContent()).toBe("The video's (Cut)");
    const saved = page.waitForResponse((r) => r.url().endsWith("/api/transitions") && r.request().method() === "PUT");
    await second.selectOption("slide");
    expect((await (await saved).json()).perScene).toEqual({ "1": "slide" });
    await page.getByText("Per scene (1 set)").waitFor();
    // the cards skip drawing off screen (content-visibility: auto), which a full-page picture would show as blanks
    await scenes().evaluateAll((cards) => cards.forEach((c) => ((c as HTMLElement).style.contentVisibility = "visible")));
    await shootBoth(page, "storyboard-transitions-per-scene");

    await page.reload();
    await page.getByText("Per scene (1 set)").click();
    expect(await second.inputValue()).toBe("slide");
    expect(await third.inputValue()).toBe("video");
    expect(await between.inputValue()).toBe("none");
  });
});
