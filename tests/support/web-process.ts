// The real web server (dist/server.js, the production build, as `npm start` runs it) in a process of its own, pointed at
// this test file's database, data folder and task queue: for tests that must see what a client sees over a real
// socket (a refused body's answer, not a reset) or measure the web process itself (its memory, from /proc).
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { compiledEntry } from "../../scripts/lib/build.mjs";
import { ROOT } from "../../scripts/lib/paths.mjs";
import { freePort } from "./ports";

export type WebProcess = { baseUrl: string; pid: number; log: () => string; stop: () => Promise<void> };

/**
 * Builds the app when its sources changed, starts the compiled web server (dist/server.js, as `npm start` runs it;
 * decision 284: through tsx each start loaded the app's TypeScript anew) and resolves once it answers.
 */
export async function startWebProcess(env: Record<string, string> = {}): Promise<WebProcess> {
  const port = await freePort();
  const logFile = path.join(process.env.DATA_DIR!, `web-${port}.log`);
  const out = fs.openSync(logFile, "a");
  const child: ChildProcess = spawn(process.execPath, compiledEntry("server"), {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: "production", PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}`, ...env },
    stdio: ["ignore", out, out],
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  const log = () => fs.readFileSync(logFile, "utf8").slice(-4000);
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  };
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the web server exited (${child.exitCode}):\n${log()}`);
    if (await fetch(`${baseUrl}/login-failed`).then((r) => r.ok, () => false)) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`the web server did not answer within 120 s:\n${log()}`);
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  return { baseUrl, pid: child.pid!, log, stop };
}

/** A process's resident memory (VmRSS in /proc/<pid>/status), in bytes. */
export function residentBytes(pid: number): number {
  const match = /^VmRSS:\s+(\d+) kB$/m.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"));
  if (!match) throw new Error(`no VmRSS for process ${pid}`);
  return Number(match[1]) * 1024;
}
