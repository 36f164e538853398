// What a program started by the worker costs it, before and after the neural voice has spoken (decision 282): the
// worker starts ffmpeg, eSpeak and nice hundreds of times a video, and a start copies the worker's page tables, so
// its cost grows with the worker's own memory. The voice's model lives in a process of its own; this prints the
// wall and CPU milliseconds of the worker's event loop a start takes, and the worker's and the voice's memory.
//   node scripts/run-ts.mjs scripts/bench-voice-spawns.ts [--starts 40] [--voice piper:en_US-joe-medium]
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { processTree } from "./lib/process-tree";

process.env.DATA_DIR ??= fs.mkdtempSync(path.join(os.tmpdir(), "reelsmith-bench-spawns-"));
process.env.SESSION_SECRET ??= "s".repeat(40);
process.env.ENCRYPTION_KEY ??= "a".repeat(64);

const { values } = parseArgs({ options: { starts: { type: "string", default: "40" }, voice: { type: "string", default: "piper:en_US-joe-medium" } } });
const starts = Number(values.starts);
const { synthesizeWithPiper } = await import("../app/providers/speech/piper.server");

const mib = (kib: number) => `${(kib / 1024).toFixed(0)} MiB`;

async function measure(label: string) {
  let blocked = 0;
  const cpu = process.cpuUsage();
  const wall = performance.now();
  for (let i = 0; i < starts; i++) {
    const t = performance.now();
    const child = spawn("true");
    // the part of a start the event loop waits for: spawn() returns once the child is forked
    blocked += performance.now() - t;
    await new Promise((resolve) => child.once("close", resolve));
  }
  const used = process.cpuUsage(cpu);
  const tree = processTree(process.pid);
  const own = tree.find((p) => p.pid === process.pid)?.rssKiB ?? 0;
  const others = tree.filter((p) => p.pid !== process.pid).reduce((sum, p) => sum + p.rssKiB, 0);
  console.log(
    `${label.padEnd(28)} ${(blocked / starts).toFixed(1).padStart(5)} ms event loop, ${((used.user + used.system) / 1000 / starts).toFixed(1).padStart(5)} CPU ms a start ` +
      `(${((performance.now() - wall) / starts).toFixed(1)} ms to its end); worker ${mib(own)}, its other processes ${mib(others)}`,
  );
}

await measure("before the voice");
const spoken = await synthesizeWithPiper({ text: "A program started beside the voice should cost what it cost before it.", voiceId: values.voice });
await measure(`after ${spoken.durationSeconds.toFixed(1)} s spoken`);
process.exit(0);
