// npm run drills: every part of a running Reelsmith killed in the middle of every stage (issue 31, decision 182).
// The stack is started once the way `npm start` starts it (tests/support/drill-stack.ts: supervised PostgreSQL,
// Temporal, web and worker on spare ports, a data folder of their own, the YouTube fake); then four creators each
// take a 10 s Short through Generate All, a render, a music mix and an upload, and in each stage one part gets a
// real SIGKILL: creator n kills part (stage + n) mod 4, so the sixteen pairs are each drilled once. Each drill
// checks that the stage finished by itself with exactly one of everything and no leftovers, and measures how long
// the app took to be usable again. Prints the table (README) and exits 1 when a drill failed.
// The integration test tests/integration/drills.integration.test.ts runs the first creator's four drills.
import { startDrillStack, PARTS } from "../tests/support/drill-stack";
import { drillTable, openDrills, STAGES, type DrillResult } from "../tests/support/drills";

const started = performance.now();
console.log("starting PostgreSQL, Temporal, the built web server and the worker (supervised, as npm start does)...");
const stack = await startDrillStack({ log: (line) => console.log(line) });
const stop = () => stack.stop().catch(() => {});
process.once("SIGINT", () => void stop().then(() => process.exit(130)));

const results: DrillResult[] = [];
let failed = false;
try {
  const drills = await openDrills(stack);
  for (let creator = 0; creator < PARTS.length; creator++) {
    const journey = await drills.startJourney(`matrix-${creator + 1}`);
    console.log(`\ncreator ${creator + 1}: "${journey.title}"`);
    for (const [i, stage] of STAGES.entries()) {
      const part = PARTS[(i + creator) % PARTS.length]!;
      results.push(await drills.drill(journey, stage, part, (line) => console.log(`  ${line}`)));
    }
  }
  await drills.close();
} catch (e) {
  failed = true;
  console.error("the drills stopped:", e);
} finally {
  await stop();
}
failed ||= results.some((r) => r.result !== "ok");
console.log(`\n${drillTable(results)}\n`);
console.log(`${results.filter((r) => r.result === "ok").length} of ${results.length} drills passed in ${((performance.now() - started) / 60_000).toFixed(1)} minutes; logs in ${stack.logFile}`);
process.exit(failed ? 1 : 0);
