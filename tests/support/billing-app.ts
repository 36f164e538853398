// A second copy of the built app for the browser tests, with billing ON: STRIPE_SECRET_KEY set, the real
// `stripe` client pointed at the stripe-mock the test command started, and a webhook secret the test signs
// events with. It gets its own database (copied from the template), data directory and port (E2E_PORT+150).
// No worker: the billing pages and the dashboard need none (so it is ready when a page answers, not /healthz).
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { compiledEntry } from "../../scripts/lib/build.mjs";
import { createDatabaseFromTemplate } from "../../scripts/lib/test-servers.mjs";

export const BILLING_WEBHOOK_SECRET = "whsec_e2eBillingSecret";
export const BILLING_OWNER_EMAIL = "billing-owner@reelsmith.test";

export type BillingApp = { baseUrl: string; stop: () => Promise<void> };

export async function startBillingApp(): Promise<BillingApp> {
  const adminUrl = process.env.TEST_PG_ADMIN_URL;
  const template = process.env.TEST_TEMPLATE_DATABASE;
  const stripeUrl = process.env.TEST_STRIPE_API_URL;
  if (!adminUrl || !template || !stripeUrl)
    throw new Error(
      "Run the browser tests with `npm test -- e2e` (it starts PostgreSQL and stripe-mock)."
    );
  const port = Number(process.env.E2E_PORT ?? 3100) + 150;
  const databaseUrl = await createDatabaseFromTemplate(
    adminUrl,
    template,
    `test_e2e_billing_${Date.now()}`
  );
  const dataDir = fs.mkdtempSync(
    path.join(os.tmpdir(), "reelsmith-e2e-billing-")
  );
  const logFile = path.join(dataDir, "web.log");
  const child: ChildProcess = spawn(
    process.execPath,
    compiledEntry("server"),
    {
      cwd: path.resolve(import.meta.dirname, "../.."),
      env: {
        ...process.env,
        NODE_ENV: "production",
        PORT: String(port),
        DATABASE_URL: databaseUrl,
        DATA_DIR: dataDir,
        TEMPORAL_TASK_QUEUE: `e2e-billing-${Date.now()}`,
        OWNER_EMAIL: BILLING_OWNER_EMAIL,
        BUILTIN_SIGNIN_ALLOWS_OWNER: "true",
        STRIPE_SECRET_KEY: "sk_test_e2eBilling",
        STRIPE_WEBHOOK_SECRET: BILLING_WEBHOOK_SECRET,
        STRIPE_API_URL: stripeUrl,
      },
      stdio: ["ignore", fs.openSync(logFile, "w"), fs.openSync(logFile, "a")],
    }
  );
  const baseUrl = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
      if (child.exitCode === null) child.kill("SIGKILL");
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null)
      throw new Error(
        `The billing app exited (${child.exitCode}): ${fs
          .readFileSync(logFile, "utf8")
          .slice(-2000)}`
      );
    const up = await fetch(`${baseUrl}/login-failed`).then(
      (r) => r.ok,
      () => false
    );
    if (up) break;
    if (Date.now() > deadline) {
      const log = fs.readFileSync(logFile, "utf8").slice(-2000);
      await stop();
      throw new Error(`The billing app did not start: ${log}`);
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  return { baseUrl, stop };
}
