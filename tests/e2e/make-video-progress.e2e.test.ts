// Issue 53 in the browser: a batch row being made shows its stages side by side, the running ones lit (several at
// once when they overlap), with one time left for the whole video. Screenshots at 1280x800 and 390x844. ("Make the
// whole video" on /create shows the same strip: the screens tour drives it, tests/e2e/screens.e2e.test.ts.)
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

vi.hoisted(() => {
  // the app under test's database (scripts/lib/test-app.mjs), before any app module reads it
  process.env.DATABASE_URL = process.env.E2E_DATABASE_URL;
  process.env.DATA_DIR = process.env.E2E_DATA_DIR ?? `${process.env.DATA_DIR ?? ".data"}/e2e-${process.env.E2E_PORT ?? 3100}`;
});

const { prisma } = await import("~/core/db.server");
const { baseUrl, launchChromium } = await import("../support/browser");
const { signIn } = await import("../support/browser-auth");
const { shootBoth, VIEWPORTS } = await import("../support/screenshots");

let browser: Browser;

beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await prisma.$disconnect();
});

/** A signed-in Premium creator (music is Premium when billing is on). */
async function premiumPage(who: string): Promise<Page> {
  const page = await (await browser.newContext({ viewport: VIEWPORTS.desktop })).newPage();
  const email = `${who}-${Date.now()}@example.com`;
  await signIn(page, { email, name: who });
  const user = await prisma.user.findUniqueOrThrow({ where: { email } });
  await prisma.subscription.create({ data: { userId: user.id, stripeCustomerId: `cus_${user.id}`, status: "active", currentPeriodEnd: new Date(Date.now() + 30 * 86_400_000) } });
  return page;
}

const hydrated = (page: Page) => page.waitForFunction(() => Object.keys(document).some((k) => k.startsWith("__reactContainer")), undefined, { timeout: 30_000 });

describe("the stages that run at once, on the pages (issue 53)", () => {
  it("a batch row shows its stages side by side and the time left", { timeout: 90_000 }, async () => {
    const page = await premiumPage("pia-pipeline");
    await page.goto(`${baseUrl()}/batches`);
    await hydrated(page);
    await page.getByLabel("Batch rows").fill("title,topic,format,duration,quality,music\nWhy cats purr,How a cat's larynx makes the purr,9:16,5,720,true");
    await page.getByRole("button", { name: "Start Batch" }).click();
    const stages = page.getByRole("list", { name: "Stages" }).first();
    // the row's stages, running ones lit (the page reads every 3 s, so the music's few seconds beside the script may
    // fall between two reads: the API and CLI tests check two at once), and the time left in words
    await expect.poll(() => stages.locator("li[data-status=running]").count(), { timeout: 60_000, interval: 250 }).toBeGreaterThanOrEqual(1);
    expect(await page.getByText(/^(About .* left|A few seconds left)$/).first().isVisible()).toBe(true);
    expect(await stages.locator("li[data-status=waiting]").count()).toBeGreaterThan(0);
    await shootBoth(page, "make-video-progress-batch");

    await page.context().close();
  });
});
