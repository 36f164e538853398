// Long work waits behind short steps on a queue (decision 298). Under bench:load, 50 scripts' timings by the voice held
// the light queue's slots, and each script's save (a 20 ms step) waited up to 109 s behind the timings scheduled
// before it, first in, first out. Here the real script workflow runs on the test Temporal server (started with the
// new matcher, as npm start does) with a timing that takes FIT_MS: four times as many scripts as the light queue has
// slots press at once, so a backlog of timings forms, and every script's save must start within one timing's length
// of being scheduled (the next slot to free), not after the backlog.
import os from "node:os";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { prisma } from "~/core/db.server";
import { workerSlots } from "~/lib/limits";
import { createScriptActivities } from "../../workflows/activities/script";
import { scriptWorkflow } from "../../workflows/script";
import { scriptedTextProvider, scriptedVoice } from "../support/scripted-text-provider";
import { startTestWorker } from "../support/temporal";

const FIT_MS = 1500;
const SLOTS = workerSlots(os.availableParallelism()).activities;
const SCRIPTS = SLOTS * 4;

type Run = { type: string; scheduledMs: number; startedMs: number; endedMs: number };

/** Each activity of a workflow's history: when it was scheduled, started and ended. */
async function activityRuns(worker: Awaited<ReturnType<typeof startTestWorker>>, workflowId: string): Promise<Run[]> {
  const history = await worker.client.workflow.getHandle(workflowId).fetchHistory();
  const ms = (t: { seconds?: unknown; nanos?: number | null } | null | undefined) => Number(t?.seconds ?? 0) * 1000 + Math.round((t?.nanos ?? 0) / 1e6);
  const byId = new Map<number, Run>();
  for (const e of history.events ?? []) {
    const id = Number(e.eventId);
    if (e.activityTaskScheduledEventAttributes) byId.set(id, { type: e.activityTaskScheduledEventAttributes.activityType?.name ?? "", scheduledMs: ms(e.eventTime), startedMs: NaN, endedMs: NaN });
    if (e.activityTaskStartedEventAttributes) byId.get(Number(e.activityTaskStartedEventAttributes.scheduledEventId))!.startedMs = ms(e.eventTime);
    const ended = e.activityTaskCompletedEventAttributes ?? e.activityTaskFailedEventAttributes;
    if (ended) byId.get(Number(ended.scheduledEventId))!.endedMs = ms(e.eventTime);
  }
  return [...byId.values()];
}

describe("a queue's short steps go before its long work", () => {
  let worker: Awaited<ReturnType<typeof startTestWorker>>;
  const { provider } = scriptedTextProvider();

  beforeAll(async () => {
    const real = createScriptActivities({ textProviderFor: async () => provider, speechProviderFor: async () => scriptedVoice });
    worker = await startTestWorker({
      activities: {
        ...real,
        // the timing by the voice, as long as it is under load, without its CPU
        async fitScriptToTime(input: { chunks: string[] }) {
          await sleep(FIT_MS);
          return { chunks: input.chunks, rewrites: 0 };
        },
      },
    });
  });
  afterAll(async () => {
    await worker?.stop();
    await prisma.$disconnect();
  });

  it(`saves each of ${SCRIPTS} scripts pressed at once as its own timing ends, not after the other scripts' timings`, async () => {
    const started = await Promise.all(
      Array.from({ length: SCRIPTS }, async (_, n) => {
        const user = await prisma.user.create({ data: { email: `queue-priority-${n}-${Date.now()}@example.com` } });
        const project = await prisma.project.create({ data: { userId: user.id, title: `Why the sea is salty ${n}`, topic: "Rivers, rocks and vents", resolution: "shorts", durationSeconds: 30 } });
        return worker.client.workflow.start(scriptWorkflow, {
          taskQueue: worker.taskQueue,
          workflowId: `queue-priority-${project.id}`,
          args: [{ projectId: project.id, userId: user.id, title: project.title, topic: project.topic, durationSeconds: 30 }],
        });
      }),
    );
    await Promise.all(started.map((h) => h.result()));

    const runs = await Promise.all(started.map((h) => activityRuns(worker, h.workflowId)));
    const fits = runs.flat().filter((r) => r.type === "fitScriptToTime");
    const saves = runs.map((r) => r.find((a) => a.type === "proofreadAndSaveScript")!);
    expect(fits).toHaveLength(SCRIPTS);
    // a backlog of timings formed: the last one waited for several rounds of the slots
    const fitWaits = fits.map((f) => f.startedMs - f.scheduledMs).sort((a, b) => a - b);
    expect(fitWaits.at(-1)!).toBeGreaterThan(2 * FIT_MS);
    // yet every save waited at most for the next slot to free (one timing), not for the timings queued before it
    const saveWaits = saves.map((s) => s.startedMs - s.scheduledMs);
    expect(Math.max(...saveWaits), `the saves' waits (ms): ${saveWaits.join(", ")}`).toBeLessThan(FIT_MS + 750);
    // and every script is saved in the order its timing ended, not all at the end
    const lastFitEnd = Math.max(...fits.map((f) => f.endedMs));
    expect(saves.filter((s) => s.endedMs < lastFitEnd - FIT_MS).length).toBeGreaterThanOrEqual(SCRIPTS / 2);
    const scripts = await prisma.script.findMany({ where: { projectId: { in: runs.map((_, i) => started[i]!.workflowId.replace("queue-priority-", "")) } } });
    expect(scripts.map((s) => s.status)).toEqual(Array(SCRIPTS).fill("completed"));
  }, 120_000);
});
