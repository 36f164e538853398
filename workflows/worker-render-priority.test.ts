// Decision 254: a render's ffmpeg runs RENDER_NICE_OFFSET steps below the worker, so light work on the same worker
// comes first. The real program started through renderCommand has the lower priority.
import { spawn } from "node:child_process";
import os from "node:os";
import { describe, expect, it } from "vitest";
import { renderCommand } from "./worker-priority";

async function niceOfStarted(command: { command: string; args: string[] }): Promise<number> {
  const child = spawn(command.command, command.args, { stdio: "ignore" });
  await new Promise((r) => setTimeout(r, 150));
  const nice = os.getPriority(child.pid!);
  child.kill("SIGKILL");
  return nice;
}

describe.runIf(process.platform === "linux")("a render's ffmpeg below the worker", () => {
  it("runs 5 steps below this process by default, at its own priority with RENDER_NICE_OFFSET=0", async () => {
    const own = os.getPriority();
    expect(await niceOfStarted(renderCommand("sleep", ["5"]))).toBe(Math.min(19, own + 5));
    expect(renderCommand("sleep", ["5"], 0)).toEqual({ command: "sleep", args: ["5"] });
    expect(await niceOfStarted(renderCommand("sleep", ["5"], 0))).toBe(own);
  });
});
