// Waiting for a server by its own readiness (issue 47): a probe that asks the server what a client would (Temporal's
// gRPC health check and its namespace, an HTTP health or API answer), not an open port, with a patience that fits a
// busy first run, counted from the server's start, after the one-time builds (scripts/lib/go-tool.mjs).
import { logger } from "./log.mjs";

/**
 * How long a server that is still running may take to answer its readiness probe: a first run on a fresh, busy machine
 * (two cores shared with npm, apt, a build beside it) starts servers several times slower than a warm one. A server
 * that exits is reported at once, with its last lines, whatever is left of it.
 */
export const SERVER_START_PATIENCE_MS = 300_000;
/** How often a wait that has not ended says so. */
const STILL_WAITING_EVERY_MS = 30_000;

/**
 * Waits until `probe()` resolves to true. Throws when `child` exits first (with its last lines) or when `patienceMs`
 * pass; says every 30 s that it still waits, and why: the probe's last answer (a string it resolved to, or the
 * message it threw).
 */
export async function waitUntilReady({ what, probe, child, patienceMs = SERVER_START_PATIENCE_MS, intervalMs = 500, log = logger("reelsmith") }) {
  const started = Date.now();
  let nextNotice = started + STILL_WAITING_EVERY_MS;
  let last = "no answer yet";
  for (;;) {
    if (child && (child.exitCode !== null || child.signalCode !== null)) {
      const lines = child.lastLines?.length ? `; its last lines:\n${child.lastLines.map((l) => `    ${l}`).join("\n")}` : "";
      throw new Error(`${what} exited (${child.signalCode ?? `code ${child.exitCode}`}) before it was ready${lines}`);
    }
    try {
      const answer = await probe();
      if (answer === true) return;
      if (typeof answer === "string") last = answer;
    } catch (e) {
      last = e?.cause?.code ?? e?.message ?? String(e);
    }
    const now = Date.now();
    if (now - started >= patienceMs) throw new Error(`${what} was not ready after ${Math.round((now - started) / 1000)} s (${last})`);
    if (now >= nextNotice) {
      log.info(`still waiting for ${what} (${Math.round((now - started) / 1000)} s; ${last})`);
      nextNotice = now + STILL_WAITING_EVERY_MS;
    }
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

/** An HTTP readiness probe for waitUntilReady: true when `ok(response)`, else the reason. */
export const httpProbe =
  (url, { ok = (r) => r.ok, init = {} } = {}) =>
  async () => {
    const response = await fetch(url, { ...init, signal: AbortSignal.timeout(5000) });
    await response.body?.cancel();
    return ok(response) ? true : `HTTP ${response.status}`;
  };
