// npm run test:paths [-- --rounds=3]: the creator's five paths (issue 55), each one browser test file, run several
// rounds in a row against fresh test servers, to show they pass every time and not by luck:
//   1. a title and topic to posts on YouTube, TikTok and Instagram, with no keys   tests/e2e/title-to-posts.e2e.test.ts
//   2. the creator's own script to a video in the neural voice, heard in it        tests/e2e/own-words.e2e.test.ts
//   3. a 3-minute video to three Shorts and a Spanish version                      tests/e2e/shorts-versions.e2e.test.ts
//   4. a channel's week, from ideas to scheduled posts                             tests/e2e/channels.e2e.test.ts
//   5. animated scenes within a budget, against the Runway and Veo fakes           tests/e2e/ai-clips.e2e.test.ts
// Each round is one `scripts/test.mjs e2e <those files>` run (fresh servers and app). Prints a line per round, with
// each file's time (from that run's list of slowest files) and the load average, and exits non-zero if any round
// failed.
import { spawn } from "node:child_process";
import os from "node:os";
import path from "node:path";
import { stripVTControlCharacters } from "node:util";
import { ROOT } from "./lib/paths.mjs";
import { logger } from "./lib/log.mjs";

const log = logger("paths");
const rounds = Number(process.argv.find((a) => a.startsWith("--rounds="))?.slice("--rounds=".length) ?? 3);
if (!Number.isInteger(rounds) || rounds < 1) throw new Error("--rounds must be a whole number of at least 1");
const PATHS = [
  ["title to posts on three platforms", "tests/e2e/title-to-posts.e2e.test.ts"],
  ["own script to video in the neural voice", "tests/e2e/own-words.e2e.test.ts"],
  ["three Shorts and a Spanish version", "tests/e2e/shorts-versions.e2e.test.ts"],
  ["a channel's week of scheduled posts", "tests/e2e/channels.e2e.test.ts"],
  ["animated scenes within a budget", "tests/e2e/ai-clips.e2e.test.ts"],
];
const load = () => os.loadavg().map((l) => l.toFixed(1)).join(" ");

/** One round: its outcome, its time, each path file's time and whether it failed (read from the run's own output). */
function round() {
  return new Promise((resolve) => {
    const started = performance.now();
    const loadBefore = load();
    const child = spawn(process.execPath, [path.join(ROOT, "scripts/test.mjs"), "e2e", ...PATHS.map(([, file]) => file)], { cwd: ROOT, stdio: ["inherit", "pipe", "pipe"] });
    const files = new Map();
    const failed = new Set();
    let slowest = false;
    let pending = "";
    const read = (chunk, out) => {
      out.write(chunk);
      pending += chunk;
      const lines = pending.split("\n");
      pending = lines.pop();
      for (const raw of lines) {
        const line = stripVTControlCharacters(raw);
        if (line.includes("slowest test files")) slowest = true;
        const timed = slowest && /(\d+(?:\.\d+)?) s\s+\S+\s+(tests\/\S+)/.exec(line);
        if (timed) files.set(timed[2], Number(timed[1]));
        const failure = /FAILED \S+ (tests\/\S+)/.exec(line);
        if (failure) failed.add(failure[1]);
      }
    };
    child.stdout.on("data", (d) => read(String(d), process.stdout));
    child.stderr.on("data", (d) => read(String(d), process.stderr));
    child.on("exit", (code) => resolve({ passed: code === 0, seconds: (performance.now() - started) / 1000, files, failed, load: `${loadBefore} -> ${load()}` }));
  });
}

const results = [];
for (let i = 1; i <= rounds; i++) {
  log.info(`── round ${i} of ${rounds}: ${PATHS.map(([name]) => name).join(", ")} (load average ${load()})`);
  results.push(await round());
}
log.info("the creator's paths:");
for (const [i, r] of results.entries()) {
  log.info(`  round ${i + 1}: ${r.passed ? "passed" : "FAILED"} in ${r.seconds.toFixed(0)} s (load average ${r.load})`);
  for (const [name, file] of PATHS) {
    const seconds = r.files.get(file);
    log.info(`    ${(seconds === undefined ? "-" : `${seconds.toFixed(1)} s`).padStart(8)}  ${r.failed.has(file) ? "FAILED" : "      "}  ${name} (${path.basename(file)})`);
  }
}
const failed = results.filter((r) => !r.passed).length;
if (failed) {
  log.error(`${failed} of ${rounds} rounds failed`);
  process.exit(1);
}
log.info(`all ${rounds} rounds passed`);
