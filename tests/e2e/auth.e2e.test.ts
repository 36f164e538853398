// Sign-in through the embedded identity provider, sign-out, the login-failed branches, what signed-out
// visitors may reach, the /api gates, the header on a narrow screen, and the owner's favicon.
import pg from "pg";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, beforeEach, afterEach, describe, expect, it } from "vitest";
import { baseUrl, launchChromium } from "../support/browser";
import { signIn } from "../support/browser-auth";
import { listRoutes } from "../support/routes";

let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});
beforeEach(async () => {
  context = await browser.newContext();
  page = await context.newPage();
});
afterEach(async () => {
  await context?.close();
});

const uniqueEmail = (who: string) => `${who}-${Date.now()}-${Math.random().toString(36).slice(2, 6)}@example.com`;

async function withDatabase<T>(fn: (db: pg.Client) => Promise<T>): Promise<T> {
  const db = new pg.Client({ connectionString: process.env.E2E_DATABASE_URL });
  await db.connect();
  try {
    return await fn(db);
  } finally {
    await db.end();
  }
}

describe("signing in and out", () => {
  it("a new user signs in through the embedded provider, lands on the dashboard, and signs out", async () => {
    const email = uniqueEmail("casey");
    await signIn(page, { email, name: "Casey Creator" });
    expect(new URL(page.url()).pathname).toBe("/");
    await expect(page.getByRole("heading", { name: "Dashboard" }).isVisible()).resolves.toBe(true);
    await expect(page.getByText("Welcome, Casey Creator.").isVisible()).resolves.toBe(true);
    await expect(page.getByText("No videos yet").isVisible()).resolves.toBe(true);
    // Billing is not configured in the test app: self-hosted mode, shown as such.
    await expect(page.getByText("Self-hosted mode").first().isVisible()).resolves.toBe(true);

    const nav = page.getByRole("navigation", { name: "Main" });
    await expect(nav.getByRole("link").allTextContents()).resolves.toEqual(["Create New Video"]);
    await expect(page.getByRole("link", { name: "Dashboard" }).first().getAttribute("href")).resolves.toBe("/dashboard");

    const user = await page.evaluate(() => fetch("/api/auth/user").then((r) => r.json()));
    expect(user).toMatchObject({ email, name: "Casey Creator", accessLevel: "premium", selfHosted: true });
    const cookies = await context.cookies();
    const session = cookies.find((c) => c.name === "reelsmith_session");
    expect(session).toMatchObject({ httpOnly: true, sameSite: "Lax" });

    await page.getByRole("button", { name: "Sign Out" }).first().click();
    await page.waitForURL(`${baseUrl()}/`);
    await expect(page.getByText("AI Script Generation", { exact: true }).isVisible()).resolves.toBe(true);
    const after = await page.evaluate(() => fetch("/api/auth/user").then((r) => r.status));
    expect(after).toBe(401);
  });

  it("signing in again as the same person reuses the account and shows the dashboard page too", async () => {
    const email = uniqueEmail("robin");
    await signIn(page, { email, name: "Robin" });
    const first = await page.evaluate(() => fetch("/api/auth/user").then((r) => r.json()));
    await page.getByRole("button", { name: "Sign Out" }).first().click();
    await page.waitForURL(`${baseUrl()}/`);
    await signIn(page, { email: email.toUpperCase(), name: "Robin Renamed" });
    const second = await page.evaluate(() => fetch("/api/auth/user").then((r) => r.json()));
    expect(second.id).toBe(first.id);
    expect(second.name).toBe("Robin Renamed");
    await page.goto(`${baseUrl()}/dashboard`);
    await expect(page.getByRole("heading", { name: "Dashboard" }).isVisible()).resolves.toBe(true);
  });

  it("asks again for an e-mail the provider cannot use", async () => {
    await page.goto(`${baseUrl()}/api/login`);
    await page.getByLabel("E-mail").fill("not-an-email");
    await page.getByLabel("Name").fill("Someone");
    await page.locator("form").evaluate((form: HTMLFormElement) => form.setAttribute("novalidate", ""));
    await page.getByRole("button", { name: "Sign In" }).click();
    await expect(page.getByRole("alert").textContent()).resolves.toMatch(/Enter an e-mail address/);
  });
});

describe("sign-in failures", () => {
  it("cancelling at the built-in provider says it was cancelled, with no Google-specific help", async () => {
    await page.goto(`${baseUrl()}/api/login`);
    await page.getByRole("button", { name: "Cancel" }).click();
    await page.waitForURL((url) => url.pathname === "/login-failed");
    expect(new URL(page.url()).searchParams.get("error")).toBe("access_denied");
    await expect(page.getByText("The sign-in was cancelled or refused at the sign-in provider.").isVisible()).resolves.toBe(true);
    await expect(page.getByText(/testing mode/).count()).resolves.toBe(0);
    await expect(page.getByRole("link", { name: "Open Google Cloud Console" }).count()).resolves.toBe(0);
  });

  it("a signed-in visitor is told they are signed in, not that sign-in failed", async () => {
    const email = uniqueEmail("kim");
    await signIn(page, { email, name: "Kim" });
    await page.goto(`${baseUrl()}/login-failed?error=invalid_state`);
    await expect(page.getByRole("heading", { name: "You are signed in" }).isVisible()).resolves.toBe(true);
    await expect(page.getByTestId("signed-in-notice").textContent()).resolves.toContain(email);
    await expect(page.getByText("Sign-in Failed").count()).resolves.toBe(0);
    expect(await page.getByRole("link", { name: "Go to the Dashboard" }).getAttribute("href")).toBe("/dashboard");
  });

  it("any other failure shows the error and its known text (never the URL's description), and Back to Home goes to /", async () => {
    const response = await page.goto(`${baseUrl()}/login-failed?error=invalid_grant&description=${encodeURIComponent("Call 555-0100 to unlock")}`);
    expect(response?.status()).toBe(200);
    await expect(page.getByText("Authentication failed. Please try again.").isVisible()).resolves.toBe(true);
    await expect(page.getByText("invalid_grant").isVisible()).resolves.toBe(true);
    await expect(page.getByText("The sign-in code expired or was already used.").isVisible()).resolves.toBe(true);
    await expect(page.getByText("Call 555-0100").count()).resolves.toBe(0);
    await expect(page.getByRole("link", { name: "Open Google Cloud Console" }).count()).resolves.toBe(0);
    await page.getByRole("link", { name: "Back to Home" }).click();
    await page.waitForURL(`${baseUrl()}/`);
  });

  it("a callback whose state does not match is refused", async () => {
    await page.goto(`${baseUrl()}/api/auth/callback?code=forged&state=forged`);
    expect(new URL(page.url()).pathname).toBe("/login-failed");
    await expect(page.getByText("Authentication failed. Please try again.").isVisible()).resolves.toBe(true);
    await expect(page.getByText("invalid_state").isVisible()).resolves.toBe(true);
  });
});

describe("signed out", () => {
  it("a visit to /script shows the landing page", async () => {
    await page.goto(`${baseUrl()}/script`);
    expect(new URL(page.url()).pathname).toBe("/");
    await expect(page.getByText("Visual Storytelling", { exact: true }).isVisible()).resolves.toBe(true);
    // the landing page says why, with a third sign-in button; no Sign Out for a signed-out visitor
    expect(new URL(page.url()).searchParams.get("from")).toBe("/script");
    await expect(page.getByTestId("signed-out-reason").textContent()).resolves.toContain("Sign in to open the script: you are signed out, or your session has ended.");
    await expect(page.locator('a[href="/api/login"]').count()).resolves.toBe(3);
    await expect(page.locator('form[action="/api/logout"][method="post"]').count()).resolves.toBe(0);
    await expect(page.getByRole("button", { name: "Sign Out" }).count()).resolves.toBe(0);
  });

  it("/favicon.ico is served (Reelsmith's icon without a custom favicon)", async () => {
    const response = await fetch(`${baseUrl()}/favicon.ico`);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toMatch(/^image\/svg\+xml/);
    expect(await response.text()).toContain("<svg");
  });

  it("an unknown path shows 'Page Not Found'", async () => {
    const response = await page.goto(`${baseUrl()}/definitely/not/here`);
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "Page Not Found" }).isVisible()).resolves.toBe(true);
  });

  it("every /api route but sign-in, webhooks, branding files and the API's own description answers 401 JSON", async () => {
    const routes = (await listRoutes())
      .map((r) => r.path)
      .filter((p) => p.startsWith("/api/"))
      .map((p) => p.replace(/:[a-zA-Z]+/g, "x1"))
      // the API's OpenAPI document and its docs page are public (PUBLIC_API_V1_PATHS): they describe the API, they hold no one's data
      .filter((p) => !["/api/login", "/api/logout", "/api/auth/callback", "/api/suno-callback", "/api/v1/openapi.json", "/api/v1/docs"].includes(p) && !/webhook$/.test(p) && !p.startsWith("/api/branding/"));
    expect(routes).toContain("/api/auth/user");
    for (const route of routes) {
      for (const method of ["GET", "POST"]) {
        const response = await fetch(`${baseUrl()}${route}`, {
          method,
          headers: method === "POST" ? { "Content-Type": "application/json", Origin: baseUrl() } : {},
          body: method === "POST" ? "{}" : undefined,
          redirect: "manual",
        });
        expect(response.status, `${method} ${route}`).toBe(401);
        if (route.startsWith("/api/v1/")) {
          // the versioned API answers programs in RFC 9457 problem details (decision 161)
          expect(response.headers.get("content-type"), `${method} ${route}`).toMatch(/^application\/problem\+json/);
          expect(await response.json(), `${method} ${route}`).toMatchObject({ status: 401, title: expect.any(String), detail: expect.any(String) });
        } else {
          expect(await response.json(), `${method} ${route}`).toEqual({ message: "Not signed in" });
        }
      }
    }
    // The owner's logo and favicon files are public (the landing page shows the logo): no 401 there.
    expect((await fetch(`${baseUrl()}/api/branding/no-such-file`)).status).toBe(404);
  });
});

describe("state-changing /api calls from another origin", () => {
  it("are refused with 403, even for a signed-in user", async () => {
    await signIn(page, { email: uniqueEmail("origin"), name: "Origin Test" });
    const cookie = (await context.cookies()).map((c) => `${c.name}=${c.value}`).join("; ");
    const body = JSON.stringify({ title: "Forged", topic: "x", resolution: "9:16", duration: 30 });
    const forged = await fetch(`${baseUrl()}/api/projects`, {
      method: "POST",
      headers: { Cookie: cookie, "Content-Type": "application/json", Origin: "https://evil.example", "Sec-Fetch-Site": "cross-site" },
      body,
    });
    expect(forged.status).toBe(403);
    expect((await forged.json()).message).toMatch(/another website/);

    const own = await page.evaluate(
      (b) => fetch("/api/projects", { method: "POST", headers: { "Content-Type": "application/json" }, body: b }).then((r) => r.status),
      body,
    );
    expect(own).toBe(201);
  });
});

describe("the signed-in header and dashboard", () => {
  it("shows the new project, opens it, and folds into a menu on a narrow screen", async () => {
    await signIn(page, { email: uniqueEmail("mobile"), name: "Morgan" });
    const created = await page.evaluate(() =>
      fetch("/api/projects", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ title: "Deep Sea Lights", topic: "Bioluminescence", resolution: "9:16", duration: 30 }),
      }).then((r) => r.json()),
    );
    const projectId: string = created.id;
    await withDatabase((db) => db.query(`INSERT INTO "Script" (id, "projectId", status, "targetWords", "updatedAt") VALUES ($1, $2, 'completed', 75, now())`, [`s-${projectId}`, projectId]));

    await page.goto(`${baseUrl()}/dashboard`);
    await expect(page.getByRole("heading", { name: "Deep Sea Lights" }).isVisible()).resolves.toBe(true);
    await expect(page.getByTestId("project-stage").textContent()).resolves.toBe("Script");
    const nav = page.getByRole("navigation", { name: "Main" });
    await expect(nav.getByRole("link").allTextContents()).resolves.toEqual(["Create New Video", "View Script", "View Storyboard"]);

    await page.setViewportSize({ width: 390, height: 800 });
    await expect(nav.isVisible()).resolves.toBe(false);
    await page.getByRole("button", { name: "Open menu" }).click();
    const mobile = page.getByRole("navigation", { name: "Mobile" });
    const mobileLinks = (await mobile.getByRole("link").allInnerTexts()).map((t) => t.trim());
    expect(mobileLinks).toEqual(["Create New Video", "View Script", "View Storyboard", "Dashboard", "Settings", "Self-hosted mode"]);
    // Sign Out is a button that POSTs, not a link
    await expect(mobile.getByRole("button", { name: "Sign Out" }).isVisible()).resolves.toBe(true);

    await page.getByRole("button", { name: "Open Deep Sea Lights" }).click();
    await page.waitForURL((url) => url.pathname === "/script");
  });

  it("uses the owner's favicon when one is set", async () => {
    await withDatabase((db) =>
      db.query(`INSERT INTO "GlobalBranding" (id, "customFaviconUrl", "updatedAt") VALUES (1, '/custom-icon.png', now())
                ON CONFLICT (id) DO UPDATE SET "customFaviconUrl" = EXCLUDED."customFaviconUrl"`),
    );
    try {
      await page.goto(baseUrl());
      await expect(page.locator('link[rel="icon"]').getAttribute("href")).resolves.toBe("/custom-icon.png");
      // /favicon.ico, asked for by browsers whatever the page says, leads to the owner's favicon too
      const ico = await fetch(`${baseUrl()}/favicon.ico`, { redirect: "manual" });
      expect(ico.status).toBe(302);
      expect(ico.headers.get("Location")).toBe("/custom-icon.png");
    } finally {
      await withDatabase((db) => db.query(`UPDATE "GlobalBranding" SET "customFaviconUrl" = NULL WHERE id = 1`));
    }
    await page.goto(baseUrl());
    await expect(page.locator('link[rel="icon"]').getAttribute("href")).resolves.toBe("/favicon.svg");
  });
});
