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
    // let layout and transitions settle after the resize
    await page.waitForTimeout(250);
    const file = path.join(dir, `${name}-${label}.png`);
    await page.screenshot({ path: file, fullPage: true, animations: "disabled" });
    files.push(file);
  }
  if (before) await page.setViewportSize(before);
  return files;
}
