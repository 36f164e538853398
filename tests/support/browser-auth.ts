// Signs in through the embedded identity provider in the browser, the way a person does (e2e tests).
import type { Page } from "playwright-core";
import { baseUrl } from "./browser";

export async function signIn(page: Page, { email, name }: { email: string; name: string }): Promise<void> {
  await page.goto(`${baseUrl()}/api/login`);
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Name").fill(name);
  await Promise.all([
    page.waitForURL((url) => url.origin === new URL(baseUrl()).origin && !url.pathname.startsWith("/oidc") && !url.pathname.startsWith("/api/")),
    page.getByRole("button", { name: "Sign In" }).click(),
  ]);
  if (new URL(page.url()).pathname === "/login-failed") {
    throw new Error(`Sign-in failed: ${new URL(page.url()).searchParams.get("description") ?? "no description"}`);
  }
}
