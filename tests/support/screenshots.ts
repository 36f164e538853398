// Screenshots of screens for people to look at (issue 25): each shot at a desktop (1280x800) and a phone
// (390x844) viewport, full page, into one folder per test run. `npm test` names the folder
// (SCREENSHOTS_DIR=.data/screenshots/<run>) and prints it at the end; run alone, the shots go to
// .data/screenshots/manual.
import fs from "node:fs";
import path from "node:path";
import type { Page } from "playwright-core";

export const VIEWPORTS = {
  desktop: { width: 1280, height: 800 },
  phone: { width: 390, height: 844 },
} as const;

export function screenshotsDir(): string {
  const dir = path.resolve(process.env.SCREENSHOTS_DIR ?? ".data/screenshots/manual");
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

/** `<name>-desktop.png` and `<name>-phone.png`; the page's own viewport is restored afterwards. */
export async function shootBoth(page: Page, name: string): Promise<string[]> {
  const dir = screenshotsDir();
  const before = page.viewportSize();
  const files: string[] = [];
  for (const [label, size] of Object.entries(VIEWPORTS)) {
    await page.setViewportSize(size);
    // from the top, so the sticky header and fixed toasts sit where they would on arrival
    await page.evaluate(() => window.scrollTo(0, 0));
    await drawWholePage(page);
    // let layout and transitions settle after the resize
    await settled(page);
    const file = path.join(dir, `${name}-${label}.png`);
    await page.screenshot({ path: file, fullPage: true, animations: "disabled" });
    files.push(file);
  }
  // the page goes on as it draws itself (the storyboard skips off-screen cards for speed)
  await page.evaluate(() => document.getElementById("screenshot-draw-all")?.remove()).catch(() => undefined);
  if (before) await page.setViewportSize(before);
  return files;
}

/**
 * A full-page capture draws below the viewport without scrolling there, so what the page draws only when scrolled to
 * (the storyboard's cards skip drawing off screen, `content-visibility: auto`; pictures `loading="lazy"`) came out
 * empty in phone shots. Everything is drawn as a creator who scrolls would see it, and the pictures are waited for
 * (at most 3 s; a page without JavaScript fires no load events, so the wait is bounded outside it too).
 */
async function drawWholePage(page: Page): Promise<void> {
  const inPage = page.evaluate(() => {
    if (!document.getElementById("screenshot-draw-all")) {
      const style = document.createElement("style");
      style.id = "screenshot-draw-all";
      style.textContent = "* { content-visibility: visible !important; }";
      document.head.append(style);
    }
    const pictures = Array.from(document.querySelectorAll<HTMLImageElement>("img"));
    for (const img of pictures) if (img.loading === "lazy") img.loading = "eager";
    const loaded = pictures.filter((img) => !img.complete).map((img) => new Promise((resolve) => (img.addEventListener("load", resolve), img.addEventListener("error", resolve))));
    return Promise.race([Promise.all(loaded), new Promise((resolve) => setTimeout(resolve, 3000))]).then(() => undefined);
  });
  const outcome = await Promise.race([inPage.then(() => "drawn" as const, () => "drawn" as const), new Promise<"bounded">((resolve) => setTimeout(() => resolve("bounded"), 3500))]);
  if (outcome === "bounded") inPage.catch(() => undefined);
}

/**
 * Resolves once the page has laid itself out anew (after a resize, a scroll or a navigation): two animation frames
 * (the resize's media-query changes, the re-render they cause, and its paint), then every running animation or
 * transition that ends has ended, then one frame more; at most 3 s in all (a spinner's endless animation is not
 * waited for). It replaced a fixed 200-250 ms wait per viewport (issue 55: over a hundred of them in a run), which
 * was longer than most screens need and no promise for a slow one. A page that navigates meanwhile is waited for.
 */
export async function settled(page: Page): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      const inPage = page.evaluate(() => {
        const frames = (n: number) =>
          new Promise<void>((resolve) => {
            const step = (left: number) => (left === 0 ? resolve() : requestAnimationFrame(() => step(left - 1)));
            step(n);
          });
        const calm = async () => {
          await frames(2);
          const ending = document.getAnimations().filter((a) => a.playState === "running" && Number.isFinite(Number(a.effect?.getComputedTiming().endTime)));
          await Promise.all(ending.map((a) => a.finished.catch(() => undefined)));
          await frames(1);
        };
        return Promise.race([calm(), new Promise<void>((resolve) => setTimeout(resolve, 3000))]);
      });
      // a page without JavaScript (javaScriptEnabled: false) runs no frames and no timers, so its in-page wait never
      // ends: bounded here as well (it hung the storyboard's no-JavaScript phone shot until the test's time ran out)
      const outcome = await Promise.race([inPage.then(() => "settled" as const), new Promise<"bounded">((resolve) => setTimeout(() => resolve("bounded"), 3500))]);
      if (outcome === "bounded") inPage.catch(() => undefined);
      return;
    } catch (e) {
      if (attempt >= 3 || !/Execution context was destroyed|navigat/i.test(String(e))) throw e;
      await page.waitForLoadState();
    }
  }
}
