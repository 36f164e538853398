// The activities of one workflow run, read from its Temporal history: when each was scheduled, started (its last
// attempt) and closed. bench:fleet and bench:long use it to say where a render's time went.
import type { WorkflowHandle } from "@temporalio/client";

export type ActivityRun = { scheduled: number; started: number; closed: number };

/**
 * Each activity of the run by type: when it was scheduled, started (its last attempt) and closed, in seconds from
 * the run's start.
 */
export async function activityRuns(handle: WorkflowHandle): Promise<Map<string, ActivityRun[]>> {
  const events = (await handle.fetchHistory()).events ?? [];
  const time = (e: (typeof events)[number]) => Number(e.eventTime?.seconds ?? 0) + (e.eventTime?.nanos ?? 0) / 1e9;
  const origin = events[0] ? time(events[0]) : 0;
  const scheduled = new Map<string, { type: string; at: number; started?: number }>();
  const runs = new Map<string, ActivityRun[]>();
  for (const e of events) {
    if (e.activityTaskScheduledEventAttributes) scheduled.set(String(e.eventId), { type: e.activityTaskScheduledEventAttributes.activityType?.name ?? "?", at: time(e) - origin });
    const started = e.activityTaskStartedEventAttributes;
    if (started) {
      const s = scheduled.get(String(started.scheduledEventId));
      if (s) s.started = time(e) - origin;
    }
    const closed = e.activityTaskCompletedEventAttributes ?? e.activityTaskFailedEventAttributes ?? e.activityTaskTimedOutEventAttributes;
    if (closed) {
      const s = scheduled.get(String(closed.scheduledEventId));
      if (s) runs.set(s.type, [...(runs.get(s.type) ?? []), { scheduled: s.at, started: s.started ?? s.at, closed: time(e) - origin }]);
    }
  }
  return runs;
}

/** One line per activity type: how many ran, their summed running time, and the longest wait for a worker. */
export function activityBreakdown(runs: Map<string, ActivityRun[]>): string[] {
  return [...runs.entries()]
    .map(([type, list]) => ({ type, count: list.length, running: list.reduce((sum, r) => sum + (r.closed - r.started), 0), waited: Math.max(...list.map((r) => r.started - r.scheduled)), from: Math.min(...list.map((r) => r.scheduled)), to: Math.max(...list.map((r) => r.closed)) }))
    .sort((a, b) => a.from - b.from)
    .map((a) => `${a.type.padEnd(28)} x${String(a.count).padEnd(3)} running ${a.running.toFixed(1).padStart(7)} s   from ${a.from.toFixed(1).padStart(7)} s to ${a.to.toFixed(1).padStart(7)} s   longest wait ${a.waited.toFixed(1)} s`);
}

/** The activities on the render queue, which a worker runs one per render slot (WORKER_RENDERS). */
const RENDER_SLOT_ACTIVITIES = ["renderVideoChunk", "normaliseRenderSound", "renderVideoFast", "renderVideoExact"];

/**
 * Activities that take the one worker's render slot, in the order they ran: each line says when it waited from, ran
 * and ended; the last line sums the seconds the slot stood free while one of them waited (Temporal's dispatch, not
 * the render: decision 195). For a run on one worker with one render slot (bench:long).
 */
export function renderSlotTimeline(runs: Map<string, ActivityRun[]>): string[] {
  const ran = RENDER_SLOT_ACTIVITIES.flatMap((type) => (runs.get(type) ?? []).map((r) => ({ type, ...r }))).sort((a, b) => a.started - b.started);
  let idle = 0;
  const lines = ran.map((r, i) => {
    const before = ran[i - 1];
    // free while this one waited: from the later of the last one's end and this one's scheduling, to its start
    const free = before ? Math.max(0, r.started - Math.max(before.closed, r.scheduled)) : 0;
    idle += free;
    return `${r.type.padEnd(22)} waited from ${r.scheduled.toFixed(1).padStart(7)} s, ran ${r.started.toFixed(1).padStart(7)}-${r.closed.toFixed(1).padStart(7)} s (${(r.closed - r.started).toFixed(1).padStart(6)} s)${free >= 0.5 ? `, the slot free ${free.toFixed(1)} s before it` : ""}`;
  });
  return ran.length ? [...lines, `the render slot stood free while a part waited: ${idle.toFixed(1)} s in all`] : [];
}
