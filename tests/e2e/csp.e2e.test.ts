// Issue 20 / decision 052: pages run under a Content-Security-Policy whose scripts need this response's nonce
// (no 'unsafe-inline'). Every screen in the route list (app/routes.ts, so a new screen is visited without edits
// here) still hydrates in Chromium with no CSP violation and no console error; and the policy is really enforced:
// an injected inline script without the nonce is blocked.
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { baseUrl, launchChromium } from "../support/browser";
import { signIn } from "../support/browser-auth";
import { listRoutes } from "../support/routes";

let browser: Browser;
let context: BrowserContext;
let page: Page;
const problems: string[] = [];

beforeAll(async () => {
  browser = await launchChromium();
  context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  // every page of this context reports CSP violations into a list the test reads
  await context.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __cspViolations: string[] }).__cspViolations = seen;
    document.addEventListener("securitypolicyviolation", (e) => seen.push(`${e.violatedDirective} blocked ${e.blockedURI || "inline"} (${e.sourceFile}:${e.lineNumber})`));
  });
  page = await context.newPage();
  page.on("console", (m) => {
    if (m.type() !== "error") return;
    // the 404 of the page that does not exist (asked for on purpose), the built-in sign-in page's favicon, and the
    // owner's operations page, which tells this (plain) creator there is no such page (issue 54)
    const resource = m.location().url;
    if (/Failed to load resource.*404/.test(m.text()) && /\/no-such-page$|\/favicon\.ico$|\/settings\/operations$/.test(resource)) return;
    problems.push(`console error on ${page.url()} (${resource}): ${m.text()}`);
  });
  page.on("pageerror", (e) => problems.push(`page error on ${page.url()}: ${e.message}`));
});
afterAll(async () => {
  await context?.close();
  await browser?.close();
});

/** True once React has hydrated the document (hydrateRoot(document) marks it). */
const hydrated = () => page.waitForFunction(() => Object.keys(document).some((k) => k.startsWith("__reactContainer")), undefined, { timeout: 30_000 });
const violations = () => page.evaluate(() => (window as unknown as { __cspViolations: string[] }).__cspViolations);

async function visit(path: string): Promise<{ status: number; csp: string; violations: string[] }> {
  const response = await page.goto(`${baseUrl()}${path}`, { waitUntil: "load" });
  await hydrated();
  // give late scripts (streamed data, effects that fetch) a moment to run into the policy
  await page.waitForLoadState("networkidle").catch(() => {});
  return { status: response!.status(), csp: (await response!.headerValue("content-security-policy")) ?? "", violations: await violations() };
}

describe("the Content-Security-Policy with nonces", () => {
  it("every screen hydrates with no CSP violation or console error, signed out and signed in", async () => {
    // /favicon.ico is an icon (a redirect to an image), not a document that hydrates
    // /mcp is the MCP server's endpoint for programs (issue 32), not a screen
    const screens = (await listRoutes()).filter((r) => !r.path.startsWith("/api/") && !["/healthz", "/favicon.ico", "/mcp"].includes(r.path)).map((r) => r.path);
    expect(screens.length).toBeGreaterThan(12);

    // signed out: the landing page, the sign-in failure page, a page that does not exist
    for (const path of ["/", "/login-failed?error=access_denied", "/no-such-page"]) {
      const visited = await visit(path);
      expect(visited.violations, path).toEqual([]);
      expect(visited.csp).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]{20,}'(;|$)/);
      expect(visited.csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
    }

    await signIn(page, { email: `csp-${Date.now()}@example.com`, name: "Casey CSP" });
    const created = await page.evaluate(() =>
      fetch("/api/projects", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ title: "CSP check", topic: "Why browsers enforce content security policies", resolution: "9:16", duration: 30 }),
      }).then((r) => r.json() as Promise<{ id: string }>),
    );
    expect(created.id).toBeTruthy();
    // a channel of this creator's (issue 52), for /channels/:id
    const channel = await page.evaluate(() =>
      fetch("/api/v1/channels", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ name: "CSP Daily" }) }).then((r) => r.json() as Promise<{ id: string }>),
    );
    expect(channel.id).toBeTruthy();

    const nonces = new Set<string>();
    const visitedPaths: string[] = [];
    for (const pattern of screens) {
      const path = pattern === "" ? "/" : pattern === "*" ? "/no-such-page" : pattern.replace(":id", pattern.startsWith("/channels/") ? channel.id : created.id);
      const visited = await visit(path);
      visitedPaths.push(path);
      expect(visited.violations, `${path}: CSP violations`).toEqual([]);
      nonces.add(/'nonce-([^']+)'/.exec(visited.csp)?.[1] ?? "none");
      // the page's own inline scripts carry the nonce the header names
      const inline = await page.evaluate(() => [...document.querySelectorAll("script:not([src])")].map((s) => (s as HTMLScriptElement).nonce));
      expect(inline.length, `${path}: inline scripts`).toBeGreaterThan(0);
      expect(new Set(inline), `${path}: inline script nonces`).toEqual(new Set([/'nonce-([^']+)'/.exec(visited.csp)![1]]));
      // CSP_SCREENSHOTS=<dir>: a picture of each screen as it hydrated under the policy (to look at, not asserted)
      if (process.env.CSP_SCREENSHOTS) await page.screenshot({ path: `${process.env.CSP_SCREENSHOTS}/csp${path.replace(/[^a-z0-9]+/gi, "-")}.png` });
    }
    if (process.env.CSP_SCREENSHOTS) {
      await page.setViewportSize({ width: 390, height: 844 });
      for (const path of ["/dashboard", "/storyboard"]) {
        await visit(path);
        await page.screenshot({ path: `${process.env.CSP_SCREENSHOTS}/csp-mobile${path.replace(/[^a-z0-9]+/gi, "-")}.png` });
      }
      await page.setViewportSize({ width: 1280, height: 800 });
    }
    // a fresh nonce per response
    expect(nonces.size).toBe(visitedPaths.length);
    expect(nonces.has("none")).toBe(false);
    expect(problems, problems.join("\n")).toEqual([]);
  }, 600_000);

  it("an inline script without the nonce is blocked, and reported", async () => {
    await visit("/dashboard");
    const ran = await page.evaluate(async () => {
      (window as unknown as { injected?: boolean }).injected = false;
      const script = document.createElement("script");
      script.textContent = "window.injected = true;";
      document.body.appendChild(script);
      await new Promise((r) => setTimeout(r, 200));
      return (window as unknown as { injected?: boolean }).injected;
    });
    expect(ran).toBe(false);
    expect((await violations()).some((v) => v.startsWith("script-src"))).toBe(true);
    problems.length = 0; // the console reports the blocked script: that one is expected
  });
});
