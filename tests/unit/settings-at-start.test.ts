// "A bad value stops the process" (issue 47), for the processes themselves: the worker, the web server and
// `npm start`'s check each stop at start with exit code 1 and a line naming the setting (app/core/env.server.ts has
// one case per setting for the schema itself).
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");

/** Runs `args` under node with tsx and `env` over a clean environment; its exit code and what it printed. */
function start(args: string[], env: Record<string, string>) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "reelsmith-settings-"));
  try {
    const r = spawnSync(process.execPath, ["--import", "tsx", ...args], {
      cwd: ROOT,
      encoding: "utf8",
      timeout: 90_000,
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", NODE_ENV: "production", DATA_DIR: dataDir, ...env },
    });
    return { status: r.status, stderr: r.stderr };
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

describe("a bad setting stops the process, named", () => {
  it("the worker: WORKER_NICE out of range", { timeout: 120_000 }, () => {
    const { status, stderr } = start(["workflows/worker.ts"], { WORKER_NICE: "40" });
    expect(status).toBe(1);
    expect(stderr).toMatch(/worker: refusing to start\. Invalid environment:\n {2}WORKER_NICE: /);
  });

  it("the web server: FFMPEG_PATH that is not there", { timeout: 120_000 }, () => {
    const { status, stderr } = start(["server.ts"], { FFMPEG_PATH: "/nowhere/ffmpeg" });
    expect(status).toBe(1);
    expect(stderr).toMatch(/web: refusing to start\. Invalid environment:\n {2}FFMPEG_PATH: must be an executable file/);
  });

  it("npm start's check, before it starts anything: ESPEAK_NG_PATH and FFPROBE_PATH, both named", { timeout: 120_000 }, () => {
    const { status, stderr } = start(["scripts/check-settings.ts"], { ESPEAK_NG_PATH: "no-such-espeak", FFPROBE_PATH: "/nowhere/ffprobe" });
    expect(status).toBe(1);
    expect(stderr).toMatch(/FFPROBE_PATH: must be an executable file/);
    expect(stderr).toMatch(/ESPEAK_NG_PATH: must be an executable file/);
  });

  it("npm start's check passes a good environment", { timeout: 120_000 }, () => {
    const { status, stderr } = start(["scripts/check-settings.ts"], { WORKER_NICE: "5", FFMPEG_PATH: process.execPath });
    expect(stderr).toBe("");
    expect(status).toBe(0);
  });
});
