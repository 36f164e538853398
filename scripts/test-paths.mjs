// npm run test:paths [-- --rounds=3]: the creator's four paths (issue 34), each one test file, run several rounds
// in a row against fresh test servers, to show they pass every time and not by luck:
//   1. title and topic to a scheduled upload on the YouTube fake, in Chromium     tests/e2e/journey.e2e.test.ts
//   2. the creator's own script to a rendered video, in Chromium                   tests/e2e/own-words.e2e.test.ts
//   3. the same through the CLI and through MCP                                    tests/integration/{cli,mcp}.integration.test.ts
//   4. a batch                                                                     tests/integration/batches.integration.test.ts
// Each round is one `scripts/test.mjs integration e2e <those files>` run (its two lanes side by side). Prints a
// line per round and exits non-zero if any round failed.
import { spawn } from "node:child_process";
import path from "node:path";
import { ROOT } from "./lib/paths.mjs";
import { logger } from "./lib/log.mjs";

const log = logger("paths");
const rounds = Number(process.argv.find((a) => a.startsWith("--rounds="))?.slice("--rounds=".length) ?? 3);
const PATHS = [
  ["title and topic to a scheduled upload", "tests/e2e/journey.e2e.test.ts"],
  ["own script to video", "tests/e2e/own-words.e2e.test.ts"],
  ["through the CLI", "tests/integration/cli.integration.test.ts"],
  ["through MCP", "tests/integration/mcp.integration.test.ts"],
  ["a batch", "tests/integration/batches.integration.test.ts"],
];

function round() {
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn(process.execPath, [path.join(ROOT, "scripts/test.mjs"), "integration", "e2e", ...PATHS.map(([, file]) => file)], { cwd: ROOT, stdio: "inherit" });
    child.on("exit", (code) => resolve({ passed: code === 0, seconds: (performance.now() - started) / 1000 }));
  });
}

const results = [];
for (let i = 1; i <= rounds; i++) {
  log.info(`── round ${i} of ${rounds}: ${PATHS.map(([name]) => name).join(", ")}`);
  results.push(await round());
}
log.info("the creator's paths:");
for (const [i, r] of results.entries()) log.info(`  round ${i + 1}: ${r.passed ? "passed" : "FAILED"} in ${r.seconds.toFixed(0)} s`);
const failed = results.filter((r) => !r.passed).length;
if (failed) {
  log.error(`${failed} of ${rounds} rounds failed`);
  process.exit(1);
}
log.info(`all ${rounds} rounds passed`);
