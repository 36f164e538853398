// Scripts with no model, one and many at once (issue 53, decisions 253 and 258): the real script workflow (offline
// writer, the default offline voice: the neural voice where one is installed) on a worker in this process, against
// the test servers (TEST_PG_PORT / TEST_TEMPORAL_PORT, as npm test starts them). For each burst size: the time until
// every script is written (first, median, last) and the CPU seconds the worker spent per script (this process with
// its voice thread, and the programs it ran). The voice's pace is measured before the first burst (not timed).
// A benchmark, not a test: the figures depend on the machine's load.
//   node scripts/run-ts.mjs scripts/bench-scripts.ts [1,10,50] [--seconds 30] [--resolution 9:16]
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { createDatabaseFromTemplate, startTestServers } from "./lib/test-servers.mjs";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { seconds: { type: "string", default: "30" }, resolution: { type: "string", default: "9:16" } },
});
const COUNTS = (positionals[0] ?? "1,10,50").split(",").map(Number);
const SECONDS = Number(values.seconds);

/** CPU seconds of this process (all its threads) and of the programs it ran that have ended. */
function cpuSeconds(): number {
  const f = fs.readFileSync("/proc/self/stat", "utf8").split(") ")[1]!.split(" ");
  return (Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) / 100;
}

console.log("starting PostgreSQL and Temporal (not timed)...");
const servers = await startTestServers();
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "reelsmith-bench-scripts-"));
try {
  const name = `bench_scripts_${Date.now()}`;
  Object.assign(process.env, {
    DATABASE_URL: await createDatabaseFromTemplate(servers.env.TEST_PG_ADMIN_URL, servers.env.TEST_TEMPLATE_DATABASE, name),
    DATA_DIR: dataDir,
    TEMPORAL_ADDRESS: servers.env.TEMPORAL_ADDRESS,
    TEMPORAL_TASK_QUEUE: name,
    SESSION_SECRET: process.env.SESSION_SECRET ?? "s".repeat(40),
    ENCRYPTION_KEY: process.env.ENCRYPTION_KEY ?? "a".repeat(64),
  });
  const { prisma } = await import("~/core/db.server");
  const { resolutionEnum } = await import("~/lib/video-format");
  const { providersFor } = await import("~/providers/index.server");
  const { speakingRateOf } = await import("~/providers/speech/speaking-rate.server");
  const { voiceForProject } = await import("../workflows/activities/storyboard");
  const { scriptWorkflow } = await import("../workflows/script");
  const { startTestWorker } = await import("../tests/support/temporal");

  const { speech } = providersFor({});
  const voice = await voiceForProject(speech, { language: "en", voiceId: null }, null);
  const rate = await speakingRateOf(speech, voice);
  const timer = voice?.startsWith("piper:") ? ", drafts timed by its own durations" : rate.clock ? `, ${(rate.clock.secondsPerPhoneme * 1000).toFixed(1)} ms a phoneme` : ", drafts spoken";
  console.log(`voice ${voice}: ${rate.wordsPerSecond.toFixed(2)} words/s${timer}`);
  const worker = await startTestWorker();
  try {
    for (const count of COUNTS) {
      const projects = await Promise.all(
        Array.from({ length: count }, async (_, i) => {
          const user = await prisma.user.create({ data: { email: `bench-${count}-${i}-${Math.random().toString(36).slice(2)}@example.com` } });
          return prisma.project.create({
            data: { userId: user.id, title: `Why the Sea Is Salty ${i}`, topic: "Rivers, rocks and vents on the sea floor", resolution: resolutionEnum(values.resolution as "9:16"), durationSeconds: SECONDS },
          });
        }),
      );
      const cpu0 = cpuSeconds();
      const t0 = performance.now();
      const done = await Promise.all(
        projects.map(async (p) => {
          await worker.client.workflow.execute(scriptWorkflow, {
            taskQueue: worker.taskQueue,
            workflowId: `script-${p.id}`,
            args: [{ projectId: p.id, userId: p.userId, title: p.title, topic: p.topic, durationSeconds: SECONDS }],
          });
          const script = await prisma.script.findUniqueOrThrow({ where: { projectId: p.id } });
          if (script.status !== "completed") throw new Error(`script ${p.id} ended ${script.status}: ${script.error}`);
          return (performance.now() - t0) / 1000;
        }),
      );
      const cpu = cpuSeconds() - cpu0;
      done.sort((a, b) => a - b);
      console.log(
        `${String(count).padStart(3)} at once (${values.resolution} ${SECONDS} s): all written in ${done.at(-1)!.toFixed(1)} s (first ${done[0]!.toFixed(1)} s, median ${done[Math.floor((count - 1) / 2)]!.toFixed(1)} s); ` +
          `${(cpu / count).toFixed(2)} CPU s per script; load average ${os.loadavg().map((l) => l.toFixed(1)).join(" ")}`,
      );
    }
  } finally {
    await worker.stop();
    await prisma.$disconnect();
  }
} finally {
  await servers.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
process.exit(0);
