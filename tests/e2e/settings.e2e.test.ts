// Settings in Chromium, as the owner: keys saved and shown only as masks after a reload, a voice picked
// and kept, a logo uploaded and shown in the header, and a PNG disguised as an SVG refused with its reason.
import sharp from "sharp";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { baseUrl, launchChromium } from "../support/browser";
import { signIn } from "../support/browser-auth";

// The e2e app must run with OWNER_EMAIL set to this address (Custom Branding is the owner's card).
const ownerEmail = process.env.E2E_OWNER_EMAIL ?? process.env.OWNER_EMAIL ?? "owner@reelsmith.test";
const geminiKey = "AIzaSy-e2e-gemini-key-0123456789";
const sunoKey = "suno-e2e-key-0123456789";

let browser: Browser;
let page: Page;

beforeAll(async () => {
  browser = await launchChromium();
  page = await browser.newPage();
  await signIn(page, { email: ownerEmail, name: "Settings Owner" });
});
afterAll(async () => {
  await browser?.close();
});

// A Radix toast is an <li> in the toast viewport's list.
const toastWithTitle = (title: string) => page.locator("ol > li[data-state='open']", { hasText: title }).first();

describe("the settings page", () => {
  it("saves API keys and shows them only as masked placeholders after a reload", async () => {
    await page.goto(`${baseUrl()}/settings`);
    const titles = (await page.locator("main h2").allTextContents()).map((t) => t.trim());
    const expected = [
      "API Keys",
      "OpenAI-Compatible Model",
      "YouTube Upload Integration",
      // TikTok and Instagram Reels accounts (issue 49)
      "TikTok and Instagram Reels",
      "API Tokens",
      "Webhooks",
      "Voice Settings",
      // the owner's own neural voices (issue 48, decision 210)
      "Add a Neural Voice",
      "Image Model Settings",
      // AI clips' key and budgets (issue 50)
      "AI Clips",
      "Watermark Settings",
      "Custom Branding",
      "Recent Errors",
      "Usage & Tips",
      "Project Maintenance",
    ];
    expect(titles).toHaveLength(expected.length);
    expected.forEach((title, i) => expect(titles[i]).toMatch(new RegExp(`^${title}`)));

    await page.getByRole("button", { name: "Save API Keys" }).click();
    await toastWithTitle("No API Keys to Save").waitFor();

    await page.locator("#geminiApiKey").fill(`  ${geminiKey}  `);
    await page.locator("#sunoApiKey").fill(sunoKey);
    await page.getByRole("button", { name: "Save API Keys" }).click();
    await toastWithTitle("API Keys Saved").waitFor();

    await page.reload();
    const gemini = page.locator("#geminiApiKey");
    await expect.poll(() => gemini.getAttribute("placeholder")).toBe("•".repeat(geminiKey.length));
    expect(await page.locator("#sunoApiKey").getAttribute("placeholder")).toBe("•".repeat(sunoKey.length));
    expect(await page.locator("#elevenLabsApiKey").getAttribute("placeholder")).toBe("Enter your ElevenLabs API key");
    expect(await gemini.inputValue()).toBe("");
    expect(await page.content()).not.toContain(geminiKey);

    // the addresses to give Google and Leonardo (the API tokens and webhooks cards show other code)
    const youtubeSetup = await page.locator("code").allTextContents();
    expect(youtubeSetup.filter((text) => text.startsWith(new URL(baseUrl()).origin))).toEqual([`${new URL(baseUrl()).origin}/api/youtube/oauth/callback`, `${new URL(baseUrl()).origin}/api/leonardo-webhook`]);
  });

  it("lists the offline voices grouped, female first, and keeps the voice picked", async () => {
    const trigger = page.getByRole("combobox", { name: "Narration voice" });
    await expect.poll(() => trigger.isEnabled()).toBe(true);
    await trigger.click();
    await page.getByText("--- Premade Voices ---").waitFor();
    const options = await page.getByRole("option").allTextContents();
    expect(options[0]).toBe("SLT (offline) [American]");
    expect(options).toContain("AWB (offline) [Scottish]");
    await page.getByRole("option", { name: "AWB (offline) [Scottish]" }).click();
    await page.getByRole("button", { name: "Save Voice Settings" }).click();
    await toastWithTitle("Voice Settings Saved").waitFor();

    await page.reload();
    await expect.poll(() => page.getByRole("combobox", { name: "Narration voice" }).textContent()).toBe("AWB (offline) [Scottish]");
  });

  it("shows the offline image styles without a Leonardo key, and no load button", async () => {
    await page.getByText(/\(\d+ models? cached\)/).waitFor();
    expect(await page.getByRole("button", { name: /Load models|Refresh models/ }).count()).toBe(0);
  });

  it("refuses a PNG renamed .svg with the reason, then uploads a logo that appears in the header", async () => {
    const png = await sharp({ create: { width: 40, height: 20, channels: 3, background: "#ff0000" } }).png().toBuffer();
    await page.locator("#logo-file").setInputFiles({ name: "logo.svg", mimeType: "image/svg+xml", buffer: png });
    const refused = toastWithTitle("Upload failed");
    await refused.waitFor();
    expect(await refused.textContent()).toContain("the file is named .svg but its contents are a PNG image");

    const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="160" height="40"><rect width="160" height="40" rx="8" fill="#7c3aed"/></svg>';
    await page.locator("#logo-file").setInputFiles({ name: "brand.svg", mimeType: "image/svg+xml", buffer: Buffer.from(svg) });
    await toastWithTitle("Logo Uploaded").waitFor();

    const headerLogo = page.locator("header img[alt='Logo']");
    await headerLogo.waitFor();
    const src = await headerLogo.getAttribute("src");
    expect(src).toMatch(/^\/api\/branding\/\w+$/);
    await expect.poll(() => headerLogo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(160);
    expect(await page.locator("img[alt='Logo preview']").getAttribute("src")).toBe(src);

    await page.reload();
    expect(await page.locator("header img[alt='Logo']").getAttribute("src")).toBe(src);

    // Branding is for every visitor: a signed-out browser sees the logo on the landing page.
    const visitor = await browser.newContext();
    try {
      const landing = await visitor.newPage();
      await landing.goto(baseUrl());
      const landingLogo = landing.locator(`header img[src='${src}']`);
      await landingLogo.waitFor();
      await expect.poll(() => landingLogo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(160);
    } finally {
      await visitor.close();
    }
  });

  it("keeps the older light-theme page: saved keys as mask dots that are never sent back, voices need a key", async () => {
    await page.goto(`${baseUrl()}/settings/legacy`);
    const gemini = page.locator("input[name='legacy-geminiApiKey']");
    await expect.poll(() => gemini.inputValue()).toBe("•".repeat(geminiKey.length));
    await page.getByRole("button", { name: "Save Configuration" }).click();
    await toastWithTitle("No API Keys to Save").waitFor();
    await page.getByRole("button", { name: "Load Voices" }).click();
    await toastWithTitle("API Key Required").waitFor();
    expect(await page.locator("img[alt='Logo preview']").count()).toBe(1);
    await page.goto(`${baseUrl()}/settings`);
  });

  it("tells the owner no cleanup was needed for a fresh account", async () => {
    await page.getByRole("button", { name: "Clean Up Media Files" }).click();
    await toastWithTitle("No Cleanup Needed").waitFor();
  });
});
