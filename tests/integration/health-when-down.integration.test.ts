// /healthz answers within 2 s whatever is down (issue 31): here the database and Temporal accept connections and
// never answer. Anyone learns only which parts are down; the error texts go to the log, once per change.
import { closeSilentServers } from "../support/silent-servers";
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
        const started = performance.now();
        const answer = await callRoute(healthz, new Request("http://localhost:3000/healthz"));
        const seconds = (performance.now() - started) / 1000;
        expect(seconds).toBeLessThan(2);
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
