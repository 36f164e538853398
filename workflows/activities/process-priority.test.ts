// The worker's children (ffmpeg, Chromium) inherit its lowered priority; the web server's stays as it was.
import { execFileSync } from "node:child_process";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { workerNiceness } from "./process-priority";

const tsx = path.resolve("node_modules/.bin/tsx");

describe("lowerProcessPriority", () => {
  it("lowers every thread of the process, and a child process started afterwards runs at that niceness", () => {
    const before = os.getPriority(process.pid);
    const script = `
      import { execFileSync } from "node:child_process";
      import fs from "node:fs";
      import { lowerProcessPriority } from "./workflows/activities/process-priority.ts";
      lowerProcessPriority(7);
      const threads = fs.readdirSync("/proc/self/task").map((t) => Number(fs.readFileSync("/proc/self/task/" + t + "/stat", "utf8").split(") ")[1].split(" ")[16]));
      const child = execFileSync("sh", ["-c", "cut -d' ' -f19 /proc/$$/stat"], { encoding: "utf8" }).trim();
      console.log(JSON.stringify({ threads, child: Number(child) }));`;
    const out = JSON.parse(execFileSync(tsx, ["--eval", script], { encoding: "utf8" }).trim().split("\n").at(-1)!) as { threads: number[]; child: number };
    expect(out.threads.length).toBeGreaterThan(1);
    // never raised: a test run already niced past 7 (a lane of scripts/test.mjs, `nice npm test`) stays where it was
    const expected = Math.max(7, before);
    expect(new Set(out.threads)).toEqual(new Set([expected]));
    expect(out.child).toBe(expected);
    // the test process itself (standing in for the web server) was not touched
    expect(os.getPriority(process.pid)).toBe(before);
  });

  it("reads WORKER_NICE within 0..19, 10 by default", () => {
    expect(workerNiceness({})).toBe(10);
    expect(workerNiceness({ WORKER_NICE: "0" })).toBe(0);
    expect(workerNiceness({ WORKER_NICE: "40" })).toBe(19);
    expect(workerNiceness({ WORKER_NICE: "high" })).toBe(10);
  });
});
