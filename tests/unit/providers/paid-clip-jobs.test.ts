// One paid AI clip per scene, however its activity's attempts end (decision 270), against the local Runway fake with
// an in-memory job ledger that behaves as the ProviderJob table does (recall, remember, forget, claim; tests/fakes/contract.ts):
// - an attempt the server timed out while its run goes on (it hears NOT_FOUND) leaves the task to the next attempt,
//   which polls it: one task, not cancelled, not bought again;
// - a run that closed (a cancelled request) still cancels its task at Runway;
// - two attempts alive at once (the timed-out one still waiting for Runway's answer) create one task between them.
import { CancelledFailure } from "@temporalio/common";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { ProviderCall } from "~/providers/call";
import { createRunwayClipProvider, RUNWAY_TASK_JOB } from "~/providers/video/runway.server";
import { FakeRunway } from "../../fakes/ai-clips";
import { memoryLedger } from "../../fakes/contract";

const runway = new FakeRunway("runway-key-unit-0123456789");
let baseUrl = "";
beforeAll(async () => {
  baseUrl = await runway.start();
});
afterAll(() => runway.stop());
beforeEach(() => {
  runway.reset();
  runway.pendingPolls = 1_000_000;
  runway.failWith = undefined;
});

const picture = { data: Buffer.from("89504e470d0a1a0a", "hex"), mimeType: "image/png" };
const clip = { prompt: "Waves climbing a sandy beach", image: picture, aspectRatio: "16:9" as const, seconds: 5 };
const provider = (call: ProviderCall) => createRunwayClipProvider({ apiKey: runway.apiKey, baseUrl, model: "gen4_turbo", pollIntervalMs: 20, call });
const deletes = () => runway.requests.filter((r) => r.method === "DELETE");

async function until(check: () => boolean, what: string, ms = 10_000) {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe("a paid Runway task across an activity's attempts", () => {
  it("an attempt timed out while its run goes on (NOT_FOUND) leaves its task to the next attempt: one task, paid once", async () => {
    const ledger = memoryLedger();
    const first = new AbortController();
    const attempt1 = provider({ signal: first.signal, jobs: ledger, runIsOpen: async () => true }).generateClip(clip);
    await until(() => runway.requestsTo(/^\/v1\/tasks\//).length >= 2, "the first attempt to poll its task");
    // the server stopped hearing the first attempt (a loaded worker) and scheduled the next one
    first.abort(new CancelledFailure("NOT_FOUND"));
    await expect(attempt1).rejects.toThrow();
    expect(deletes()).toHaveLength(0);
    const task = ledger.jobs.get(RUNWAY_TASK_JOB);
    expect(task).toBe([...runway.tasks.keys()][0]);

    runway.pendingPolls = 0;
    const made = await provider({ jobs: ledger, runIsOpen: async () => true }).generateClip(clip);
    expect(made.jobId).toBe(task);
    expect(made.video.subarray(4, 8).toString()).toBe("ftyp");
    expect(runway.creates).toHaveLength(1);
    expect([...runway.tasks.values()].map((t) => t.cancelled)).toEqual([false]);
  });

  it("a request cancelled with its run closed (NOT_FOUND, run gone) cancels the task at Runway and forgets it", async () => {
    const ledger = memoryLedger();
    const call = new AbortController();
    const attempt = provider({ signal: call.signal, jobs: ledger, runIsOpen: async () => false }).generateClip(clip);
    await until(() => runway.requestsTo(/^\/v1\/tasks\//).length >= 1, "the task to be polled");
    call.abort(new CancelledFailure("NOT_FOUND"));
    await expect(attempt).rejects.toThrow();
    expect(deletes()).toHaveLength(1);
    expect([...runway.tasks.values()].map((t) => t.cancelled)).toEqual([true]);
    expect(ledger.jobs.size).toBe(0);
  });

  it("two attempts at once, the first still waiting for Runway's answer: one task is created and both poll it", async () => {
    const ledger = memoryLedger();
    runway.pendingPolls = 2;
    runway.trouble({ kind: "slow", delayMs: 600 }, 1, /^\/v1\/image_to_video$/);
    const attempt1 = provider({ jobs: ledger }).generateClip(clip);
    await until(() => runway.creates.length === 1, "the first create request");
    const attempt2 = provider({ jobs: ledger }).generateClip(clip);
    const [one, two] = await Promise.all([attempt1, attempt2]);
    expect(runway.creates).toHaveLength(1);
    expect(two.jobId).toBe(one.jobId);
  });

  it("a task Runway failed is an uncharged failure, named with its task", async () => {
    const ledger = memoryLedger();
    runway.pendingPolls = 0;
    runway.failWith = "The input image was rejected.";
    const failure = await provider({ jobs: ledger }).generateClip(clip).catch((e: unknown) => e);
    const { PaidJobFailed } = await import("~/providers/video/paid-job");
    expect(failure).toBeInstanceOf(PaidJobFailed);
    expect((failure as InstanceType<typeof PaidJobFailed>).jobId).toBe([...runway.tasks.keys()][0]);
    expect((failure as Error).message).toContain("The input image was rejected.");
  });
});
