import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { baseUrl, launchChromium } from "../support/browser";

let browser: Browser;
let page: Page;

beforeAll(async () => {
  browser = await launchChromium();
  page = await browser.newPage();
});
afterAll(async () => {
  await browser?.close();
});

describe("the running app", () => {
  it("serves the landing page with its feature cards and sign-in buttons", async () => {
    const response = await page.goto(baseUrl());
    expect(response?.status()).toBe(200);
    for (const text of ["AI Script Generation", "Visual Storytelling", "Professional Voiceovers", "Save Hours of Work"]) {
      await expect(page.getByText(text, { exact: true }).count()).resolves.toBe(1);
    }
    const signIn = page.locator('a[href="/api/login"]');
    expect(await signIn.count()).toBeGreaterThanOrEqual(2);
  });

  it("shows 'Page Not Found' with status 404 for an unknown path", async () => {
    const response = await page.goto(`${baseUrl()}/no-such-page`);
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "Page Not Found" }).isVisible()).resolves.toBe(true);
  });

  it("reports healthy: database, Temporal, worker, and a workflow run end to end", async () => {
    const response = await fetch(`${baseUrl()}/healthz?deep=1`);
    const report = await response.json();
    expect(response.status).toBe(200);
    expect(report).toMatchObject({ ok: true, database: { ok: true }, temporal: { ok: true }, worker: { ok: true }, pipeline: { ok: true } });
  });
});
