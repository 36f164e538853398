// The worker's children (ffmpeg, Chromium) inherit its lowered priority; the web server's stays as it was.
import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";

const tsx = path.resolve("node_modules/.bin/tsx");

describe("lowerProcessPriority", () => {
  it("lowers every thread of the process, and a child process started afterwards runs at that niceness", () => {
    const before = os.getPriority(process.pid);
    const script = `
      import { execFileSync, spawn } from "node:child_process";
      import fs from "node:fs";
      import { lowerProcessPriority } from "./workflows/worker-priority.ts";
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

});

/** Runs lowerSessionPriority(7) in a child, in a session of its own or in this one; its answer and its group's nice. */
async function sessionChild(ownSession: boolean): Promise<{ lowered: boolean; group: string }> {
  const script = `
    import fs from "node:fs";
    import { lowerSessionPriority } from "./workflows/worker-priority.ts";
    const lowered = lowerSessionPriority(7);
    console.log(JSON.stringify({ lowered, group: fs.readFileSync("/proc/self/autogroup", "utf8").trim() }));`;
  // detached: setsid, as scripts/lib/processes.mjs starts the worker for npm start (node itself, as it runs the worker:
  // the tsx command would run the script in a child of its own, not the session's leader)
  const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "--eval", script], { detached: ownSession, stdio: ["ignore", "pipe", "inherit"] });
  let out = "";
  child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
  await new Promise((resolve) => child.on("exit", resolve));
  return JSON.parse(out.trim().split("\n").at(-1)!) as { lowered: boolean; group: string };
}

// autogroups: CPU is shared between sessions first, so the worker in its own session lowers the session's group
describe.skipIf(!fs.existsSync("/proc/self/autogroup"))("lowerSessionPriority", () => {
  it("lowers the scheduling group of a worker that leads its own session, and no other group", async () => {
    const ours = fs.readFileSync("/proc/self/autogroup", "utf8").trim();
    const own = await sessionChild(true);
    expect(own.lowered).toBe(true);
    expect(own.group).toMatch(/ nice 7$/);
    expect(own.group.split(" ")[0]).not.toBe(ours.split(" ")[0]);
    // sharing this session (started from a terminal or a test runner): the group is left as it was
    const shared = await sessionChild(false);
    expect(shared.lowered).toBe(false);
    expect(shared.group).toBe(ours);
    expect(fs.readFileSync("/proc/self/autogroup", "utf8").trim()).toBe(ours);
  });
});
