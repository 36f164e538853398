// /render in Chromium follows a render through its server-sent event stream (docs/decisions/132): the page opens
// /api/progress-events?stage=render, shows the progress it carries, and does not poll /api/render-progress while
// the stream is open. The project is seeded into the e2e app's database (rendering itself is render.e2e's job).
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

vi.hoisted(() => {
  // the app under test's database and media folder (scripts/lib/test-app.mjs), before any app module reads them
  process.env.DATABASE_URL = process.env.E2E_DATABASE_URL;
  process.env.DATA_DIR = `${process.env.DATA_DIR ?? ".data"}/e2e-${process.env.E2E_PORT ?? 3100}`;
});

const { prisma } = await import("~/core/db.server");
const { baseUrl, launchChromium } = await import("../support/browser");
const { signIn } = await import("../support/browser-auth");
const { seedRenderableProject } = await import("../fixtures/render-project");

let browser: Browser;
let page: Page;

beforeAll(async () => {
  browser = await launchChromium();
  page = await (await browser.newContext()).newPage();
  const email = `streamer-${Date.now()}@example.com`;
  await signIn(page, { email, name: "Sam Stream" });
  const user = await prisma.user.findUniqueOrThrow({ where: { email } });
  await seedRenderableProject({ userId: user.id, sceneSeconds: [3, 3, 3], title: "Bees in Three Acts" });
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await prisma.$disconnect();
});

describe("/render with progress events", () => {
  it("streams the render's progress instead of polling, and shows the video at the end", { timeout: 480_000 }, async () => {
    const polls: number[] = [];
    const streams: string[] = [];
    page.on("request", (request) => {
      const url = new URL(request.url());
      if (url.pathname === "/api/render-progress") polls.push(Date.now());
      if (url.pathname === "/api/progress-events") streams.push(url.search);
    });
    await page.goto(`${baseUrl()}/render`);
    await page.getByRole("heading", { name: "Ready to Render" }).waitFor();
    await page.getByRole("button", { name: "Render Video" }).click();
    await page.getByRole("progressbar", { name: "Render progress" }).waitFor();
    const renderingSince = Date.now();
    await page.getByRole("heading", { name: "Video Rendered Successfully" }).waitFor({ timeout: 460_000 });
    const renderingMs = Date.now() - renderingSince;

    expect(streams).toContain("?stage=render");
    // polling every 2 s would have read the progress renderingMs / 2000 times; the stream leaves at most the
    // read right after the start and the one that may have been in flight when the stream opened
    const polledWhileRendering = polls.filter((t) => t > renderingSince + 1000).length;
    console.log(`render took ${renderingMs} ms on the page: ${polledWhileRendering} polls of /api/render-progress, streams ${JSON.stringify(streams)}`);
    expect(polledWhileRendering).toBeLessThanOrEqual(2);
    expect(await page.getByTestId("render-subtitle").textContent()).toMatch(/^Render • (\d+) of \1 scenes rendered$/);
  });
});
