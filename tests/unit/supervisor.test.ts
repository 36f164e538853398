// The start script's supervision: a child that dies is started again, with a doubling back-off and a log line
// per restart, and stopChildren() ends the supervision so nothing is restarted after Ctrl-C.
import { afterEach, describe, expect, it, vi } from "vitest";
import { stopChildren, superviseChild } from "../../scripts/lib/processes.mjs";

afterEach(async () => {
  await stopChildren(1000);
  vi.restoreAllMocks();
});

describe("superviseChild", () => {
  it("restarts a child that keeps dying, doubling the wait, and says so", async () => {
    const lines: string[] = [];
    vi.spyOn(console, "log").mockImplementation((...args: unknown[]) => void lines.push(args.join(" ")));
    vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => void lines.push(args.join(" ")));
    const supervisor = superviseChild("crasher", process.execPath, ["-e", "process.exit(3)"], { minBackoffMs: 100, maxBackoffMs: 400 });
    await vi.waitFor(() => expect(supervisor.restarts).toBeGreaterThanOrEqual(3), { timeout: 10_000, interval: 50 });
    const restarts = lines.filter((l) => l.includes("crasher (pid"));
    expect(restarts[0]).toMatch(/crasher \(pid \d+\) exited \(code 3\); restarting it in 0.1 s \(restart 1\)/);
    expect(restarts[1]).toMatch(/restarting it in 0.2 s \(restart 2\)/);
    expect(restarts[2]).toMatch(/restarting it in 0.4 s \(restart 3\)/);
    expect(lines.filter((l) => /crasher started \(pid \d+\)/.test(l)).length).toBeGreaterThanOrEqual(3);
  });

  it("restarts nothing once stopped", async () => {
    const supervisor = superviseChild("sleeper", process.execPath, ["-e", "setTimeout(() => {}, 60000)"], { minBackoffMs: 50 });
    await new Promise((r) => setTimeout(r, 300));
    const pid = supervisor.child!.pid!;
    await stopChildren(1000);
    await new Promise((r) => setTimeout(r, 300));
    expect(supervisor.restarts).toBe(0);
    expect(supervisor.child!.pid).toBe(pid);
    expect(() => process.kill(pid, 0)).toThrow();
  });
});
