import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { keepAliveFile } from "./worker-alive";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "reelsmith-alive-"));
const file = path.join(dir, "worker-alive");
const stops: (() => void)[] = [];
afterEach(() => {
  for (const stop of stops.splice(0)) stop();
  fs.rmSync(file, { force: true });
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const waitFor = async (check: () => boolean) => {
  for (let i = 0; i < 100 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
};

describe("WORKER_ALIVE_FILE", () => {
  it("is written at once and again while every queue's worker runs", async () => {
    stops.push(keepAliveFile(file, { workers: [{ getState: () => "RUNNING" }, { getState: () => "RUNNING" }] }, 50));
    await waitFor(() => fs.existsSync(file));
    const first = fs.statSync(file).mtimeMs;
    await waitFor(() => fs.existsSync(file) && fs.statSync(file).mtimeMs > first);
    expect(fs.statSync(file).mtimeMs).toBeGreaterThan(first);
  });

  it("goes stale once one queue's worker stopped, so the health check fails", async () => {
    let state = "RUNNING";
    stops.push(keepAliveFile(file, { workers: [{ getState: () => "RUNNING" }, { getState: () => state }] }, 20));
    await waitFor(() => fs.existsSync(file));
    state = "STOPPED";
    await new Promise((r) => setTimeout(r, 60));
    const stale = fs.statSync(file).mtimeMs;
    await new Promise((r) => setTimeout(r, 120));
    expect(fs.statSync(file).mtimeMs).toBe(stale);
  });

  it("writes nothing when unset", () => {
    stops.push(keepAliveFile(undefined, { workers: [{ getState: () => "RUNNING" }] }, 20));
    expect(fs.existsSync(file)).toBe(false);
  });
});
