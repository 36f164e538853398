// Chromium for the browser tests: Debian's build driven by playwright-core (no browser download).
import fs from "node:fs";
import { chromium, type Browser } from "playwright-core";

// Debian's /usr/bin/chromium-headless-shell is a script that runs this binary (render-engine.ts browserBinaryBehind)
const HEADLESS_SHELL = "/usr/lib/chromium/chromium-headless-shell";

export const baseUrl = () => {
  const url = process.env.E2E_BASE_URL;
  if (!url) throw new Error("E2E_BASE_URL is not set: run the browser tests with `npm test -- e2e`.");
  return url;
};

/**
 * The headless shell the exact renderer uses (system-packages.mjs installs it), not full Chromium: the same Blink,
 * without the full browser's compositor and GPU process. Measured here (stop 65): a page at rest cost full Chromium
 * 1.0 CPU s every 20 s and the shell 0.03; Playwright's Chromium was the largest single cost of the suite (524 CPU s
 * in its first 25 minutes: the browser lane keeps pages open for its whole length).
 * Every context asks for reduced motion (the app's spinners and pulses stand still, app/tailwind.css): one spinning
 * icon kept a page painting at 9 % of a core. A test that needs motion passes `reducedMotion: "no-preference"`.
 */
export async function launchChromium(): Promise<Browser> {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? (fs.existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : "/usr/bin/chromium"),
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  // browser.newPage makes its context through newContext, so both get the default
  const newContext = browser.newContext.bind(browser);
  browser.newContext = (options) => newContext({ reducedMotion: "reduce", ...options });
  return browser;
}
