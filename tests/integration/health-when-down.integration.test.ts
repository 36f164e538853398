// /healthz answers within 2 s whatever is down (issue 31): here the database and Temporal accept connections and
// never answer. Anyone learns only which parts are down; the error texts go to the log, once per change.
import { closeSilentServers } from "../support/silent-servers";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { afterAll, describe, expect, it, vi } from "vitest";
import { loader as healthz } from "~/routes/site/healthz";
import { callRoute } from "../support/routes";

afterAll(() => closeSilentServers());

describe("/healthz with the database and Temporal hung", () => {
  it("answers 503 within 2 s, saying which parts are down and nothing more; the log has the reasons once", async () => {
    const warnings: string[] = [];
    const warn = vi.spyOn(console, "warn").mockImplementation((...args: unknown[]) => void warnings.push(args.join(" ")));
    try {
      for (let i = 0; i < 2; i++) {
        // the route's own time: a timer that fires late because this test process shares a busy machine (CI ran
        // it at 2.2 s with the part limits at 1.5) is not the route's; the loop's worst lag during the call is added
        const lag = monitorEventLoopDelay({ resolution: 10 });
        lag.enable();
        const started = performance.now();
        const answer = await callRoute(healthz, new Request("http://localhost:3000/healthz"));
        const seconds = (performance.now() - started) / 1000;
        lag.disable();
        expect(seconds).toBeGreaterThanOrEqual(1.5); // the parts hung: their limits, not an early error, ended the wait
        expect(seconds - lag.max / 1e9).toBeLessThan(2);
        expect(answer.status).toBe(503);
        expect(await answer.json()).toEqual({ ok: false, parts: { database: "down", temporal: "down", worker: "down" } });
      }
      expect(warnings.filter((w) => w.startsWith("health: database is down"))).toHaveLength(1);
      expect(warnings.filter((w) => w.startsWith("health: temporal is down"))).toHaveLength(1);
      expect(warnings.join("\n")).toMatch(/no answer within 1.5 s/);
    } finally {
      warn.mockRestore();
    }
  });
});
