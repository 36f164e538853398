// Drills (issue 31, decision 182): the whole stack as `npm start` runs it (supervised PostgreSQL, Temporal, web and
// worker), and one creator's 10 s Short taken through Generate All, a render, a music mix and an upload to the
// YouTube fake, with a different part killed (a real SIGKILL of the real process) in the middle of each stage:
// every part once and every stage once. Each stage must finish by itself with exactly one of everything and no
// leftovers, and the app must be usable again within 30 s. `npm run drills` runs all sixteen pairs.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDrillStack, type DrillStack, type Part } from "../support/drill-stack";
import { drillTable, openDrills, USABLE_WITHIN_MS, type DrillResult, type Journey, type Stage } from "../support/drills";

const PLAN: [Stage, Part][] = [
  ["generate-all", "web"],
  ["render", "worker"],
  ["music-mix", "postgres"],
  ["upload", "temporal"],
];

let stack: DrillStack;
let drills: Awaited<ReturnType<typeof openDrills>>;
let journey: Journey;
const results: DrillResult[] = [];

beforeAll(async () => {
  stack = await startDrillStack({ log: (line) => console.log(line) });
  drills = await openDrills(stack);
  journey = await drills.startJourney("suite");
}, 300_000);

afterAll(async () => {
  if (results.length) console.log(`\n${drillTable(results)}\n(logs: ${stack?.logFile})`);
  await drills?.close().catch(() => {});
  await stack?.stop();
}, 60_000);

describe("drills: a part killed in the middle of each stage", () => {
  for (const [stage, part] of PLAN) {
    it(`${stage}, ${part} killed: finishes by itself, one of everything, usable within 30 s`, { timeout: 480_000 }, async () => {
      const outcome = await drills.drill(journey, stage, part, (line) => console.log(line));
      results.push(outcome);
      expect(outcome.result).toBe("ok");
      expect(outcome.usableSeconds).not.toBeNull();
      expect(outcome.usableSeconds! * 1000).toBeLessThan(USABLE_WITHIN_MS);
    });
  }
});
