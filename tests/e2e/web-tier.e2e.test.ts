// A web tier that scales out (issue 36, decision 133): two real web server processes (dist/server.js) of the built app on one
// database. A sign-in through the built-in provider hops between them at every step (each redirect is followed on
// the other process) and succeeds; sign-in attempts split across both are counted together (the 61st is 429);
// both sign with one key. Then WEB_PROCESSES=2 through the web cluster: two processes on one port, a sign-in
// through it, and a clean stop.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compiledEntry } from "../../scripts/lib/build.mjs";
import { createDatabaseFromTemplate } from "../../scripts/lib/test-servers.mjs";

const root = path.resolve(import.meta.dirname, "../..");
const base = Number(process.env.E2E_PORT ?? 3100) + 30;
const [portA, portB, portCluster] = [base, base + 1, base + 2];
const dataDir = path.join(root, ".data", `e2e-web-tier-${base}`);
const publicUrl = `http://127.0.0.1:${portA}`;
let databaseUrl: string;
const started: ChildProcess[] = [];

function startWeb(name: string, port: number, args: string[], env: Record<string, string> = {}): ChildProcess {
  fs.mkdirSync(path.join(root, ".data/logs"), { recursive: true });
  const log = fs.createWriteStream(path.join(root, `.data/logs/e2e-web-tier-${name}.log`));
  const child = spawn(process.execPath, args, {
    cwd: root,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(port),
      // one public address for both: the provider's issuer and the app's callback are the same on either process
      PUBLIC_URL: publicUrl,
      DATABASE_URL: databaseUrl,
      DATA_DIR: dataDir,
      TEMPORAL_TASK_QUEUE: `e2e-web-tier-${base}`,
      ...env,
    },
  });
  child.stdout!.pipe(log);
  child.stderr!.pipe(log);
  started.push(child);
  return child;
}

async function waitForHealth(port: number, child: ChildProcess) {
  const deadline = Date.now() + Number(process.env.E2E_READY_TIMEOUT_MS ?? 120_000);
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the web process on ${port} exited with code ${child.exitCode}`);
    // ready when the provider answers (/healthz would wait for a worker, which these tests do not need)
    const ok = await fetch(`http://127.0.0.1:${port}/oidc/.well-known/openid-configuration`).then((r) => r.ok, () => false);
    if (ok) return;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`the web process on ${port} did not come up`);
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => process.kill(-child.pid!, "SIGKILL"), 10_000);
    child.once("exit", () => {
      clearTimeout(kill);
      resolve();
    });
    process.kill(-child.pid!, "SIGTERM");
  });
}

/** A client with one cookie jar that sends each request to the port chosen for it (cookies ignore ports). */
function client() {
  const jar = new Map<string, string>();
  const served = new Set<number>();
  async function request(port: number, pathAndQuery: string, init: RequestInit = {}) {
    const cookie = [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
    const response = await fetch(`http://127.0.0.1:${port}${pathAndQuery}`, { ...init, redirect: "manual", headers: { ...(init.headers as Record<string, string>), ...(cookie ? { Cookie: cookie } : {}) } });
    served.add(port);
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(";");
      const [name, ...value] = pair!.split("=");
      const expired = attributes.some((a) => /^\s*expires=Thu, 01 Jan 1970/i.test(a) || /^\s*max-age=0\s*$/i.test(a));
      if (expired) jar.delete(name!.trim());
      else jar.set(name!.trim(), value.join("="));
    }
    return response;
  }
  return { request, served, jar };
}

/**
 * Signs in through the built-in provider, every request on the other process than the one before: the login
 * redirect, the authorization request, the sign-in page, its form, the resumed authorization, consent, and the
 * app's callback (which redeems the code). Returns the number of requests.
 */
async function signInAcross(ports: number[], email: string) {
  const c = client();
  let turn = 0;
  const next = () => ports[turn++ % ports.length]!;
  let response = await c.request(next(), "/api/login");
  let hops = 1;
  for (;;) {
    expect(response.status, `hop ${hops}`).toBeGreaterThanOrEqual(300);
    expect(response.status, `hop ${hops}`).toBeLessThan(400);
    const location = new URL(response.headers.get("location")!, publicUrl);
    const target = `${location.pathname}${location.search}`;
    if (!location.pathname.startsWith("/oidc") && !location.pathname.startsWith("/api/")) {
      expect(location.pathname).not.toBe("/login-failed");
      break;
    }
    response = await c.request(next(), target);
    hops++;
    if (response.status === 200 && location.pathname.startsWith("/oidc/interaction/")) {
      const page = await response.text();
      const action = /<form method="post" action="([^"]+)"/.exec(page)![1]!;
      response = await c.request(next(), action, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ email, name: "Hopping Creator" }).toString(),
      });
      hops++;
    }
  }
  const me = await c.request(next(), "/api/auth/user");
  expect(me.status).toBe(200);
  expect(await me.json()).toMatchObject({ email, name: "Hopping Creator" });
  return { hops, served: c.served };
}

async function resetRateLimits() {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    await db.query("DELETE FROM rate_limits");
  } finally {
    await db.end();
  }
}

beforeAll(async () => {
  databaseUrl = await createDatabaseFromTemplate(process.env.TEST_PG_ADMIN_URL!, process.env.TEST_TEMPLATE_DATABASE!, `test_e2e_web_tier_${Date.now()}`);
  fs.rmSync(dataDir, { recursive: true, force: true });
  // the compiled web server, as `npm start` runs it (decision 284)
  const a = startWeb("a", portA, compiledEntry("server"));
  // the second process starts while the first does: both must settle on one signing key
  const b = startWeb("b", portB, compiledEntry("server"));
  await Promise.all([waitForHealth(portA, a), waitForHealth(portB, b)]);
}, 240_000);

afterAll(async () => {
  await Promise.all(started.map(stop));
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("two web processes on one database", () => {
  it("both publish the same signing key", async () => {
    type Jwks = { keys: { kid: string; n: string }[] };
    const [a, b] = (await Promise.all([portA, portB].map((p) => fetch(`http://127.0.0.1:${p}/oidc/jwks`).then((r) => r.json())))) as [Jwks, Jwks];
    expect(a.keys).toHaveLength(1);
    expect(b.keys).toEqual(a.keys);
  });

  it("a sign-in that starts on one process and goes on on the other at every step succeeds (started on either)", async () => {
    await resetRateLimits();
    // Twice, starting on each: the app redeems the code at PUBLIC_URL (process A), so in one of the two runs the
    // code was issued by process B.
    for (const order of [[portA, portB], [portB, portA]]) {
      const { hops, served } = await signInAcross(order, `hopper-${order[0]}-${Date.now()}@example.com`);
      expect(served).toEqual(new Set([portA, portB]));
      // login, authorize, sign-in page, its form, resume, consent, resume, callback
      expect(hops).toBeGreaterThanOrEqual(7);
    }
  });

  it("sign-in attempts split across both processes count together: the 61st is refused with 429 and Retry-After", async () => {
    await resetRateLimits();
    const attempt = (port: number) => fetch(`http://127.0.0.1:${port}/oidc/interaction/no-such-attempt`, { method: "POST", redirect: "manual" });
    const statuses: number[] = [];
    for (let i = 0; i < 60; i++) statuses.push((await attempt(i % 2 ? portB : portA)).status);
    expect(statuses.filter((s) => s === 429)).toEqual([]);
    const refused = await attempt(portA);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(((await refused.json()) as { message: string }).message).toMatch(/Too many sign-in attempts/);
    // the other process refuses too: /api/login sends the browser to the too-many page
    const login = await fetch(`http://127.0.0.1:${portB}/api/login`, { redirect: "manual" });
    expect(login.headers.get("location")).toBe("/login-failed?error=too_many_attempts");
    await resetRateLimits();
  });
});

describe("WEB_PROCESSES=2: the web cluster", () => {
  it("runs two server processes on one port; a sign-in through it works; SIGTERM stops them all", async () => {
    const primary = startWeb("cluster", portCluster, ["scripts/lib/web-cluster.mjs"], { WEB_PROCESSES: "2", PUBLIC_URL: `http://127.0.0.1:${portCluster}` });
    await waitForHealth(portCluster, primary);
    const children = () =>
      fs
        .readdirSync("/proc")
        .filter((p) => /^\d+$/.test(p))
        .filter((p) => {
          try {
            return fs.readFileSync(`/proc/${p}/stat`, "utf8").replace(/^.*\) /, "").split(" ")[1] === String(primary.pid);
          } catch {
            return false;
          }
        })
        .map(Number);
    expect(children()).toHaveLength(2);
    // a web process that dies is started again
    const [killed] = children();
    process.kill(killed!, "SIGKILL");
    const deadline = Date.now() + 90_000;
    while (Date.now() < deadline && !(children().length === 2 && !children().includes(killed!))) await new Promise((r) => setTimeout(r, 500));
    const workers = children();
    expect(workers).toHaveLength(2);
    expect(workers).not.toContain(killed);
    await waitForHealth(portCluster, primary);
    await resetRateLimits();
    // the primary hands connections to both processes in turn, so this sign-in is served by both
    await signInAcross([portCluster], `cluster-${Date.now()}@example.com`);
    await stop(primary);
    expect(primary.exitCode).toBe(0);
    for (const pid of workers) expect(fs.existsSync(`/proc/${pid}`)).toBe(false);
  }, 240_000);
});
