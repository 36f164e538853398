// A tour of every screen in the route list (tests/support/routes.ts listRoutes(), so a new screen cannot be
// missed), in its main states (signed out, a new creator's empty project, a finished project, errors; this round's
// pages with their content: a channel's calendar and kit, two batches, a video's Short and version, the platforms'
// accounts, the Animate panel, /create while the whole video is made (tests/fixtures/pages-content.ts)), each
// photographed at 1280x800 and 390x844 and checked with axe-core: no serious or critical violation (issue 25), no
// sideways scrolling and no control covered by a layer on top of it (issue 34).
// Then the keyboard: the music volume slider with arrows and Page Up/Down, a dialog closed with Escape that
// gives focus back, and the tab order on /create with the focus visible on every stop.
import AxeBuilder from "@axe-core/playwright";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { FAKE_CLIENT_ID, FAKE_CLIENT_SECRET } from "../fakes/youtube";

vi.hoisted(() => {
  // the app under test's database and media folder (scripts/lib/test-app.mjs), before any app module reads them
  process.env.DATABASE_URL = process.env.E2E_DATABASE_URL;
  process.env.DATA_DIR = process.env.E2E_DATA_DIR ?? `${process.env.DATA_DIR ?? ".data"}/e2e-${process.env.E2E_PORT ?? 3100}`;
});

const { prisma } = await import("~/core/db.server");
const { baseUrl, launchChromium } = await import("../support/browser");
const { signIn } = await import("../support/browser-auth");
const { listRoutes } = await import("../support/routes");
const { settled, shootBoth, VIEWPORTS } = await import("../support/screenshots");
const { seedRenderableProject } = await import("../fixtures/render-project");
const { seedRenderedVideo } = await import("../fixtures/music-project");
const { seedBatches, seedChannelWeek, seedClipSpend } = await import("../fixtures/pages-content");

type Violation = { screen: string; viewport: string; id: string; impact: string; help: string; targets: string[] };

let browser: Browser;
const violations: Violation[] = [];
const visited = new Set<string>();

/** The screens (not /api routes, not the JSON health check) of the route list, as URL patterns. */
async function screenPatterns(): Promise<string[]> {
  // /favicon.ico is an icon (a redirect, checked by the auth e2e), not a screen
  // /mcp is the MCP server's endpoint for programs (issue 32), not a screen
  return (await listRoutes()).map((r) => r.path).filter((p) => !p.startsWith("/api/") && !["/healthz", "/favicon.ico", "/mcp"].includes(p));
}

async function newPage(context?: BrowserContext): Promise<Page> {
  return (context ?? (await browser.newContext({ viewport: VIEWPORTS.desktop }))).newPage();
}

/** Axe over the page as it is now, at both widths; serious and critical findings are collected. */
async function audit(page: Page, screen: string) {
  const before = page.viewportSize();
  for (const [viewport, size] of Object.entries(VIEWPORTS)) {
    await page.setViewportSize(size);
    await settled(page);
    // nothing wider than the screen: no sideways scrolling, nothing cut off at the right edge
    const overflow = await page.evaluate(() => {
      const width = document.documentElement.clientWidth;
      const wide = [...document.querySelectorAll("body *")]
        .filter((el) => {
          const r = el.getBoundingClientRect();
          return r.width > 0 && r.right > width + 1 && getComputedStyle(el).position !== "fixed" && !el.closest("[data-radix-popper-content-wrapper]");
        })
        .map((el) => `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ""}.${String(el.className).split(" ").slice(0, 3).join(".")}`);
      return { scrollWidth: document.documentElement.scrollWidth, width, wide: wide.slice(0, 5) };
    });
    if (overflow.scrollWidth > overflow.width + 1) {
      violations.push({ screen, viewport, id: "horizontal-overflow", impact: "serious", help: `page is ${overflow.scrollWidth}px wide in a ${overflow.width}px screen`, targets: overflow.wide });
    }
    // nothing laid over a control (issue 34): the middle of every visible control in the screen is the control itself,
    // not a fixed, sticky or absolute layer on top of it (a header, a bar, a badge); toasts come and go and are left out
    const covered = await page.evaluate(() => {
      const layered = (el: Element | null) => {
        for (let e = el; e && e !== document.body; e = e.parentElement) {
          if (["fixed", "sticky", "absolute"].includes(getComputedStyle(e).position)) return true;
        }
        return false;
      };
      const name = (el: Element) => `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ""} "${(el.getAttribute("aria-label") ?? (el as HTMLElement).innerText ?? "").trim().slice(0, 40)}"`;
      const found: string[] = [];
      const controls = document.querySelectorAll('a[href], button, input:not([type="hidden"]), select, textarea, [role="button"], [role="slider"], [role="tab"], [role="checkbox"], [role="switch"]');
      for (const el of controls) {
        const r = el.getBoundingClientRect();
        const style = getComputedStyle(el);
        if (r.width < 4 || r.height < 4 || style.visibility === "hidden" || style.opacity === "0" || style.pointerEvents === "none") continue;
        const [x, y] = [r.left + r.width / 2, r.top + r.height / 2];
        if (x < 0 || y < 0 || x >= window.innerWidth || y >= window.innerHeight) continue;
        const top = document.elementFromPoint(x, y);
        if (!top || el.contains(top) || top.contains(el) || top.closest("label")?.contains(el) || (top as HTMLLabelElement).control === el) continue;
        if (top.closest("[data-sonner-toaster], [data-radix-popper-content-wrapper]")) continue;
        if (layered(top)) found.push(`${name(el)} under ${name(top)}`);
      }
      return found.slice(0, 5);
    });
    if (covered.length) violations.push({ screen, viewport, id: "covered-control", impact: "serious", help: "a control is covered by a layer on top of it", targets: covered });
    const result = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]).analyze();
    for (const v of result.violations) {
      if (v.impact !== "serious" && v.impact !== "critical") continue;
      violations.push({ screen, viewport, id: v.id, impact: v.impact, help: v.help, targets: v.nodes.slice(0, 5).map((n) => n.target.join(" ")) });
    }
  }
  if (before) await page.setViewportSize(before);
}

/** Opens `url`, waits for what shows the screen is ready, photographs it and audits it. */
async function visit(page: Page, pattern: string, url: string, state: string, ready: (page: Page) => Promise<unknown>) {
  await page.goto(`${baseUrl()}${url}`);
  await ready(page);
  await check(page, pattern, url, state);
}

/** Photographs and audits the screen as it is now (after a click opened a panel, or while something runs). */
async function check(page: Page, pattern: string, url: string, state: string) {
  // no raw error objects or stack traces on any screen
  const text = await page.locator("body").innerText();
  expect(text, `${url} (${state})`).not.toMatch(/\[object Object\]|Error: .*\n\s+at |\bundefined\b|\bNaN\b/);
  const name = `${pattern === "*" ? "not-found" : pattern.replace(/^\//, "").replace(/[/:]+/g, "_") || "home"}-${state}`;
  await shootBoth(page, `screen-${name}`);
  await audit(page, `${url} (${state})`);
  visited.add(pattern);
}

const heading = (name: string | RegExp) => (page: Page) => page.getByRole("heading", { name }).first().waitFor({ timeout: 30_000 });
const mainLoaded = (page: Page) => page.locator("main").first().waitFor({ timeout: 30_000 });

beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await prisma.$disconnect();
});

describe("every screen, photographed and checked with axe", () => {
  it("signed out: the landing page, the sign-in form, a failed sign-in and a missing page", { timeout: 120_000 }, async () => {
    const page = await newPage();
    await visit(page, "", "/", "signed-out", heading(/.+/));
    await visit(page, "/login-failed", "/login-failed?error=access_denied&description=The+sign-in+was+cancelled.", "error", mainLoaded);
    await visit(page, "*", "/no-such-page", "signed-out", heading("Page Not Found"));
    // the built-in provider's sign-in form (the /oidc pages are not Remix routes but are a screen all the same)
    await page.goto(`${baseUrl()}/api/login`);
    await page.getByLabel("E-mail").waitFor();
    await shootBoth(page, "screen-sign-in");
    await audit(page, "/api/login → sign-in form");
    await page.context().close();
  });

  it("a new creator: every stage's screen before there is anything to show", { timeout: 180_000 }, async () => {
    const page = await newPage();
    await signIn(page, { email: `newcomer-${Date.now()}@example.com`, name: "Nia Newcomer" });
    await visit(page, "", "/", "empty", mainLoaded);
    await visit(page, "/dashboard", "/dashboard", "empty", mainLoaded);
    // the batches screen is reached from the dashboard, not only by its address
    await page.getByRole("link", { name: "Batch of Videos" }).click();
    await page.waitForURL(/\/batches$/);
    await visit(page, "/create", "/create", "empty", heading("Create New Video"));
    for (const stage of ["/script", "/storyboard", "/music", "/render", "/thumbnail", "/upload"]) {
      await visit(page, stage, stage, "empty", mainLoaded);
    }
    await visit(page, "/subscription", "/subscription", "free", mainLoaded);
    await visit(page, "/settings", "/settings", "new", mainLoaded);
    await visit(page, "/settings/legacy", "/settings/legacy", "new", mainLoaded);
    await visit(page, "/batches", "/batches", "empty", mainLoaded);
    await visit(page, "/channels", "/channels", "empty", heading("Channels"));
    await visit(page, "/projects/:id", "/projects/not-a-project-of-mine", "not-found", heading("Page Not Found"));
    await visit(page, "/projects/:id/upload", "/projects/not-a-project-of-mine/upload", "not-found", mainLoaded);
    await visit(page, "/projects/:id/outputs", "/projects/not-a-project-of-mine/outputs", "not-found", heading("Page Not Found"));
    await visit(page, "*", "/no-such-page", "signed-in", heading("Page Not Found"));
    await page.context().close();
  });

  it("a finished project: storyboard with media, music, a render, the publish screens, its outputs, a channel and batches", { timeout: 300_000 }, async () => {
    const page = await newPage();
    const email = `finisher-${Date.now()}@example.com`;
    await signIn(page, { email, name: "Fay Finisher" });
    const user = await prisma.user.findUniqueOrThrow({ where: { email } });
    const { projectId } = await seedRenderableProject({ userId: user.id, sceneSeconds: [2, 2], title: "Bees at Dawn", resolution: "shorts", musicSeconds: 4 });
    await seedRenderedVideo({ userId: user.id, projectId, seconds: 4, voiceSeconds: 2, width: 180, height: 320 });
    await seedClipSpend({ userId: user.id, projectId });
    await visit(page, "/dashboard", "/dashboard", "one-project", (p) => p.getByText("Bees at Dawn").first().waitFor());
    await visit(page, "/script", "/script", "done", (p) => p.getByRole("button", { name: "Generate Storyboard" }).waitFor());
    await visit(page, "/storyboard", "/storyboard", "done", (p) => p.getByText("Every scene has its image and voiceover.").waitFor());
    // the Animate panel open (issue 50): the estimate per scene, the budget's figures and what this video's clips cost
    await page.getByRole("button", { name: "Animate", exact: true }).click();
    await page.getByTestId("clip-estimate").waitFor();
    await page.getByTestId("clip-spend").waitFor();
    await check(page, "/storyboard", "/storyboard", "animate");
    await visit(page, "/music", "/music", "done", (p) => p.getByTestId("music-track").first().waitFor());
    await visit(page, "/render", "/render", "done", heading("Video Rendered Successfully"));
    await visit(page, "/thumbnail", "/thumbnail", "ready", (p) => p.getByRole("button", { name: "Scene 1" }).waitFor());
    await visit(page, "/upload", "/upload", "connect", heading("Your Video"));
    await visit(page, "/projects/:id", `/projects/${projectId}`, "done", heading("Bees at Dawn"));

    // the platforms' accounts (issue 49), each through its consent popup on the fakes: TikTok and Instagram in
    // Settings, YouTube on the Upload page, which then offers all three
    const consent = async (button: string) => {
      const popup = page.context().waitForEvent("page");
      await page.getByRole("button", { name: button }).click();
      await (await popup).waitForEvent("close", { timeout: 30_000 });
    };
    expect((await page.request.put(`${baseUrl()}/api/config`, { data: { googleOAuthClientId: FAKE_CLIENT_ID, googleOAuthClientSecret: FAKE_CLIENT_SECRET } })).status()).toBe(200);
    await page.goto(`${baseUrl()}/settings`);
    await consent("Connect TikTok");
    await page.getByText("Fake Bee Channel", { exact: true }).waitFor({ timeout: 15_000 });
    await consent("Connect Instagram");
    await page.getByText("fake.bees", { exact: true }).waitFor({ timeout: 15_000 });
    await check(page, "/settings", "/settings", "connected");
    await page.goto(`${baseUrl()}/projects/${projectId}/upload`);
    await consent("Connect YouTube");
    const publish = page.getByRole("region", { name: "Publish" });
    await publish.getByLabel("YouTube · Fake Creator Channel").waitFor({ timeout: 15_000 });
    // the three chosen: TikTok's panel (its privacy choice, switches and consent line) and Instagram's beside YouTube's
    await publish.getByLabel("TikTok · Fake Bee Channel").check();
    await publish.getByLabel("Instagram Reels · fake.bees").check();
    await publish.getByLabel("Who can see this post").waitFor();
    // "YouTube connected" is read and closed, as a creator would: on a phone toasts sit over the header for 5 s
    const toast = page.locator("li[data-state=open]");
    if (await toast.count()) {
      await toast.getByRole("button", { name: "Close" }).click();
      await expect.poll(() => toast.count()).toBe(0);
    }
    await check(page, "/projects/:id/upload", `/projects/${projectId}/upload`, "connected");

    // a Short and a Spanish version (issue 51), made by the app as the page's buttons make them
    expect((await page.request.post(`${baseUrl()}/api/projects/${projectId}/shorts`, { data: { fromScene: 0, toScene: 1 } })).ok()).toBe(true);
    expect((await page.request.post(`${baseUrl()}/api/projects/${projectId}/versions`, { data: { language: "es", voiceovers: false } })).ok()).toBe(true);
    await visit(page, "/projects/:id/outputs", `/projects/${projectId}/outputs`, "done", (p) => p.getByText("Version · Spanish (Español)").waitFor());
    expect(await page.getByText("Short · 9:16").count()).toBe(1);
    await visit(page, "/dashboard", "/dashboard", "with-outputs", (p) => p.getByText("Bees at Dawn").first().waitFor());

    // a channel (issue 52) posting to that YouTube account, its kit, and three weeks of calendar filled
    const youtube = await prisma.youtubeConnection.findUniqueOrThrow({ where: { userId: user.id } });
    const { channelId } = await seedChannelWeek({ userId: user.id, name: "Bees Daily", projectId, youtubeConnectionId: youtube.id });
    await visit(page, "/channels", "/channels", "one-channel", (p) => p.getByText("Bees Daily").first().waitFor());
    await visit(page, "/channels/:id", `/channels/${channelId}`, "calendar", (p) => p.getByText("Made: waiting for your approval").first().waitFor());
    expect(await page.getByTestId("calendar-slot").filter({ hasText: "Queued: made ahead of its slot" }).count()).toBeGreaterThan(0);
    // batches (issue 32): one finished with a failed row, one running with its stages
    await seedBatches({ userId: user.id });
    await visit(page, "/batches", "/batches", "two-batches", (p) => p.getByRole("list", { name: "Stages" }).first().waitFor());
    // the finished batch's failed row can be made again; the running batch has nothing to retry
    expect(await page.getByRole("button", { name: "Retry Failed" }).count()).toBe(1);

    // a render that failed: the error as the catalogue words it, never a raw object
    await prisma.renderedVideo.create({ data: { projectId, status: "error", error: "Rendering failed: the renderer stopped unexpectedly." } });
    await visit(page, "/render", "/render", "error", mainLoaded);
    await page.context().close();
  });

  it("/create while the whole video is made: its stages side by side and the time left (decision 262)", { timeout: 120_000 }, async () => {
    const page = await newPage();
    const email = `maker-${Date.now()}@example.com`;
    await signIn(page, { email, name: "Max Maker" });
    await page.goto(`${baseUrl()}/create`);
    await page.getByRole("heading", { name: "Create New Video" }).waitFor();
    await page.getByLabel("Title").fill("Why owls fly in silence");
    await page.getByLabel("Topic").fill("Comb-like feather edges break up the air");
    await page.getByText("9:16 Shorts").click();
    const slider = page.getByRole("slider", { name: "Duration in seconds" });
    await slider.focus();
    await slider.press("Home"); // 5 s: the shortest video, cancelled once looked at
    await page.getByText("Sample draft (template)").click();
    await page.getByRole("button", { name: "Make the whole video" }).click();
    const stages = page.getByRole("list", { name: "Stages" });
    await stages.locator("li[data-status=running]").first().waitFor({ timeout: 60_000 });
    await check(page, "/create", "/create", "making");
    const user = await prisma.user.findUniqueOrThrow({ where: { email } });
    const run = await prisma.videoRun.findFirstOrThrow({ where: { userId: user.id } });
    expect((await page.request.post(`${baseUrl()}/api/v1/videos/${run.id}/cancel`)).ok()).toBe(true);
    await page.context().close();
  });

  it("the owner: the Operations page with a render running, a video waiting and a failed stage (issue 54)", { timeout: 120_000 }, async () => {
    const page = await newPage();
    const email = process.env.E2E_OWNER_EMAIL ?? process.env.OWNER_EMAIL ?? "owner@reelsmith.test";
    await signIn(page, { email, name: "Olive Owner" });
    const owner = await prisma.user.findUniqueOrThrow({ where: { email } });
    const { projectId } = await seedRenderableProject({ userId: owner.id, sceneSeconds: [2, 2], title: "Operations at Noon", resolution: "shorts" });
    await prisma.renderedVideo.create({ data: { projectId, status: "processing" } });
    await prisma.renderedVideo.create({ data: { projectId, status: "error", error: "Rendering failed: the renderer stopped unexpectedly." } });
    await prisma.videoRun.create({ data: { userId: owner.id, options: {}, status: "queued" } });
    await visit(page, "/settings/operations", "/settings/operations", "owner", heading("Operations"));
    const figure = (label: string) => page.locator("dt", { hasText: label }).locator("xpath=following-sibling::dd[1]").innerText();
    expect(Number(await figure("Renders running"))).toBeGreaterThanOrEqual(1);
    expect(Number(await figure("Videos waiting"))).toBeGreaterThanOrEqual(1);
    await expect(page.getByRole("table", { name: "Failures by stage" }).getByRole("row", { name: /Render/ }).innerText()).resolves.toMatch(/Render\s+[1-9]/);
    await page.context().close();
  });

  it("covered every screen of the route list, with no serious or critical axe violation", async () => {
    const missing = (await screenPatterns()).filter((p) => !visited.has(p));
    expect(missing, "screens in app/routes.ts the tour did not visit").toEqual([]);
    const report = violations.map((v) => `${v.screen} @${v.viewport}: [${v.impact}] ${v.id}: ${v.help}\n    ${v.targets.join("\n    ")}`);
    expect(report, report.join("\n")).toEqual([]);
  });
});

describe("the keyboard", () => {
  let page: Page;

  beforeAll(async () => {
    page = await newPage();
    const email = `keyboard-${Date.now()}@example.com`;
    await signIn(page, { email, name: "Kai Keyboard" });
    const user = await prisma.user.findUniqueOrThrow({ where: { email } });
    // a project with a finished track but no render: moving the volume saves it and mixes nothing
    await seedRenderableProject({ userId: user.id, sceneSeconds: [2], title: "Keys and Bees", resolution: "shorts", musicSeconds: 3 });
  }, 120_000);

  it("the music volume slider moves with the arrows, Page Up/Down, Home and End", async () => {
    await page.goto(`${baseUrl()}/music`);
    const volume = page.getByRole("slider", { name: "Background Music Volume" });
    await volume.waitFor();
    const shown = page.getByTestId("music-volume");
    await volume.focus();
    await volume.press("Home");
    await shown.filter({ hasText: /^0%$/ }).waitFor();
    await volume.press("ArrowRight");
    await shown.filter({ hasText: /^1%$/ }).waitFor();
    await volume.press("ArrowUp");
    await shown.filter({ hasText: /^2%$/ }).waitFor();
    await volume.press("PageUp");
    await shown.filter({ hasText: /^12%$/ }).waitFor();
    expect(await volume.getAttribute("aria-valuenow")).toBe("12");
    await volume.press("PageDown");
    await shown.filter({ hasText: /^2%$/ }).waitFor();
    await volume.press("ArrowLeft");
    await shown.filter({ hasText: /^1%$/ }).waitFor();
    await volume.press("End");
    expect(await volume.getAttribute("aria-valuenow")).toBe(await volume.getAttribute("aria-valuemax"));
    // the last value is saved once the saves before it are done (one at a time, only the latest waiting)
    const savedTen = page.waitForResponse((r) => r.url().endsWith("/api/music-volume") && r.request().postDataJSON()?.volume === 10);
    await volume.press("Home");
    await volume.press("PageUp");
    await shown.filter({ hasText: /^10%$/ }).waitFor();
    expect((await savedTen).status()).toBe(200);
    // the committed value is the project's: it is there after a reload
    await expect.poll(async () => (await page.reload(), await page.getByTestId("music-volume").textContent()), { timeout: 15_000 }).toBe("10%");
  });

  it("a dialog opens from the keyboard, closes with Escape and gives the focus back", async () => {
    await page.goto(`${baseUrl()}/dashboard`);
    const remove = page.getByRole("button", { name: "Delete Keys and Bees" });
    await remove.focus();
    await page.keyboard.press("Enter");
    const dialog = page.getByRole("dialog", { name: "Delete this project?" });
    await dialog.waitFor();
    // the focus moved into the dialog
    expect(await dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true);
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "detached" });
    expect(await remove.evaluate((b) => b === document.activeElement)).toBe(true);
    // nothing was deleted
    expect(await page.getByText("Keys and Bees").count()).toBeGreaterThan(0);
  });

  it("on /create, Tab goes Title, Script, Settings, Topic, Format, Duration, Language, Voice, Play sample, Voice speed, Create Video, and every stop shows its focus", async () => {
    await page.goto(`${baseUrl()}/create`);
    await page.getByRole("heading", { name: "Create New Video" }).waitFor();
    // no text model here: the outline is the default (issue 48); the sample draft shows the form's own stops
    await page.getByText("Sample draft (template)").click();
    // start just before the form: focus the page heading's area, then tab through the form
    await page.getByLabel("Title").focus();
    const stops: string[] = [];
    for (let i = 0; i < 12; i++) {
      const stop = await page.evaluate(() => {
        const el = document.activeElement as HTMLElement | null;
        if (!el) return "";
        const label = el.getAttribute("aria-label") ?? (el as HTMLInputElement).labels?.[0]?.innerText ?? el.innerText;
        return `${el.tagName.toLowerCase()}${el.getAttribute("role") ? `[${el.getAttribute("role")}]` : ""}: ${label.split("\n")[0]!.trim()}`;
      });
      stops.push(stop);
      await expectFocusVisible(page, stop);
      if (stop.startsWith("button: Create Video")) break;
      await page.keyboard.press("Tab");
    }
    expect(stops[0]).toBe("input: Title");
    // who writes the script (issue 33): one radio group, one tab stop
    expect(stops[1]).toBe("input: Sample draft (template)");
    // with no text model the script group says where a model is set
    expect(stops[2]).toBe("a: Settings");
    expect(stops[3]).toBe("textarea: Topic");
    // the format the creator's last project had (decision 191): whichever it is, the group is one stop
    expect(stops[4]).toMatch(/^input: (16:9 Landscape|9:16 Shorts|9:16 TikTok)$/);
    expect(stops[5]).toBe("span[slider]: Duration in seconds");
    expect(stops[6]).toBe("select: Language");
    expect(stops[7]).toBe("select: Voice");
    // the offline voice's sample, beside its picker (issue 48)
    expect(stops[8]).toMatch(/^button: Play sample of /);
    expect(stops[9]).toBe("span[slider]: Voice speed");
    expect(stops[10]).toBe("button: Create Video");
    // arrows move between the formats (one radio group, one tab stop)
    await page.getByLabel("Title").focus();
    for (let i = 0; i < 4; i++) await page.keyboard.press("Tab");
    await page.keyboard.press("ArrowRight");
    expect(await page.evaluate(() => (document.activeElement as HTMLInputElement).checked)).toBe(true);
    await expectFocusVisible(page, "the second format");
  });
});

/**
 * The focused control looks different from the same control unfocused: a picture of its box (or, for a visually
 * hidden input, its label's box) with a margin for rings and outlines, before and after blurring it.
 */
async function expectFocusVisible(page: Page, what: string) {
  const box = await page.evaluate(() => {
    let el = document.activeElement as HTMLElement | null;
    if (!el) return null;
    const r0 = el.getBoundingClientRect();
    if (r0.width <= 2 || r0.height <= 2) el = (el.closest("label") as HTMLElement | null) ?? el.parentElement;
    el!.scrollIntoView({ block: "center" });
    const r = el!.getBoundingClientRect();
    return { x: Math.max(0, r.x - 6), y: Math.max(0, r.y - 6), width: r.width + 12, height: r.height + 12 };
  });
  expect(box, `${what}: something has the focus`).not.toBeNull();
  await page.mouse.move(0, 0);
  await page.waitForTimeout(200); // transitions
  const focused = await page.screenshot({ clip: box!, animations: "disabled" });
  const restore = await page.evaluateHandle(() => document.activeElement);
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.waitForTimeout(200);
  const blurred = await page.screenshot({ clip: box!, animations: "disabled" });
  await restore.evaluate((el) => (el as HTMLElement).focus());
  expect(focused.equals(blurred), `${what}: the focus is not visible`).toBe(false);
}
