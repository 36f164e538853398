// The web process's latest progress answers (docs/decisions/132): a workflow's state is still queried from
// Temporal, but at most once per workflow and interval while someone watches; every status poll and event stream
// reads it from here, concurrent readers share one query, and a reader never waits when an answer exists.
import { WorkflowNotFoundError } from "@temporalio/client";
import type { QueryDefinition } from "@temporalio/common";
import { getTemporalClient } from "./temporal.server";

/** How old an answer may be before the next reader triggers a refresh (in the background). */
export const PROGRESS_INTERVAL_MS = 1000;

export type AnswerCacheOptions = {
  intervalMs: number;
  /** an answer nobody asked for this long is dropped */
  idleMs: number;
  /** an answer that says its run ended is served this long without refreshing, then dropped */
  endedMs: number;
  /** at most this many answers; the least recently asked go first */
  maxEntries: number;
  /** a load still running after this long is no longer waited on: the next reader starts another */
  loadTimeoutMs: number;
  now: () => number;
};

type Entry = {
  has: boolean;
  value: unknown;
  /** when the load that produced `value` started (an answer cannot know of anything newer) */
  fetchedAt: number;
  askedAt: number;
  endedAt: number | null;
  inflight: Promise<unknown> | null;
  inflightStartedAt: number;
};

export type ReadOptions<T> = {
  /** an answer whose load started before this (ms) is too old to use: a run created since then is unknown to it */
  notBefore?: number | null;
  /** true when the answer says the run ended: it is not refreshed any more and dropped soon */
  ended?: (value: T) => boolean;
  /** wait for a refresh (shared) rather than take an answer older than this: for event streams, never for polls */
  maxAgeMs?: number;
};

/** Single-flight, interval-limited answers per key, bounded in size and dropped when nobody watches. */
export class AnswerCache {
  private readonly entries = new Map<string, Entry>();
  private readonly options: AnswerCacheOptions;
  private lastSweep = 0;

  constructor(options: Partial<AnswerCacheOptions> = {}) {
    this.options = { intervalMs: PROGRESS_INTERVAL_MS, idleMs: 30_000, endedMs: 5_000, maxEntries: 5_000, loadTimeoutMs: 10_000, now: Date.now, ...options };
  }

  get size(): number {
    return this.entries.size;
  }

  /**
   * The latest answer for `key`. A fresh one is returned as is; a stale one too, with one refresh started in the
   * background; without a usable one, the caller waits for the single load every concurrent caller shares.
   */
  read<T>(key: string, load: () => Promise<T>, options: ReadOptions<T> = {}): Promise<T> {
    const now = this.options.now();
    this.sweep(now);
    let entry = this.entries.get(key);
    if (!entry) {
      entry = { has: false, value: undefined, fetchedAt: 0, askedAt: now, endedAt: null, inflight: null, inflightStartedAt: 0 };
      this.entries.set(key, entry);
    } else {
      // re-inserted, so the map's order is least recently asked first (the size bound drops from the front)
      this.entries.delete(key);
      this.entries.set(key, entry);
    }
    entry.askedAt = now;
    const notBefore = Math.max(options.notBefore ?? 0, options.maxAgeMs === undefined ? 0 : now - options.maxAgeMs);
    // a load that hangs (a Temporal call without an answer) must not hold every later reader
    const inflight = entry.inflight && now - entry.inflightStartedAt < this.options.loadTimeoutMs ? entry.inflight : null;
    if (entry.has && entry.fetchedAt >= notBefore) {
      const stale = entry.endedAt === null && now - entry.fetchedAt >= this.options.intervalMs;
      if (stale && !inflight) this.load(entry, load, options, now).catch(() => {}); // the old answer stays
      return Promise.resolve(entry.value as T);
    }
    if (inflight && entry.inflightStartedAt >= notBefore) return inflight as Promise<T>;
    return this.load(entry, load, options, now);
  }

  /** Drops the answer for `key` (a run was just started under that id: the next reader asks again). */
  forget(key: string): void {
    this.entries.delete(key);
  }

  private load<T>(entry: Entry, load: () => Promise<T>, options: ReadOptions<T>, startedAt: number): Promise<T> {
    const promise = load().then((value) => {
      if (startedAt >= entry.fetchedAt || !entry.has) {
        entry.has = true;
        entry.value = value;
        entry.fetchedAt = startedAt;
        entry.endedAt = options.ended?.(value) ? this.options.now() : null;
      }
      return value;
    });
    entry.inflight = promise;
    entry.inflightStartedAt = startedAt;
    const settle = () => {
      if (entry.inflight === promise) entry.inflight = null;
    };
    promise.then(settle, settle);
    return promise;
  }

  /** Drops answers nobody asked for lately and ended ones past their time; then keeps within maxEntries. */
  private sweep(now: number): void {
    const { idleMs, endedMs, intervalMs, maxEntries } = this.options;
    if (now - this.lastSweep >= intervalMs) {
      this.lastSweep = now;
      for (const [key, entry] of this.entries) {
        if (entry.inflight) continue;
        if (now - entry.askedAt > idleMs || (entry.endedAt !== null && now - entry.endedAt > endedMs)) this.entries.delete(key);
      }
    }
    for (const key of this.entries.keys()) {
      if (this.entries.size < maxEntries) break;
      this.entries.delete(key);
    }
  }
}

declare global {
  var __reelsmithProgressCache: AnswerCache | undefined;
}

/** The process's cache (one across Vite's module reloads in development). */
export function progressCache(): AnswerCache {
  globalThis.__reelsmithProgressCache ??= new AnswerCache();
  return globalThis.__reelsmithProgressCache;
}

/** What the web side knows of a workflow: running (with its progress, null when no worker answered), or not. */
export type WorkflowSnapshot<T> = {
  /** running; ended (closed in any way); not_found (never started, or its history is gone); unknown (Temporal did not answer) */
  state: "running" | "ended" | "not_found" | "unknown";
  runId: string | null;
  progress: T | null;
};

/** A query needs a worker to answer; with none running it would wait, so each call gets two seconds. */
const TEMPORAL_DEADLINE_MS = 2000;

/** Asks Temporal once: describe, then (while running, when a query is given) the workflow's progress query. */
export async function fetchWorkflowSnapshot<T>(workflowId: string, query: QueryDefinition<T> | null): Promise<WorkflowSnapshot<T>> {
  let client;
  try {
    client = await getTemporalClient();
  } catch {
    return { state: "unknown", runId: null, progress: null };
  }
  const handle = client.workflow.getHandle(workflowId);
  let description;
  try {
    description = await client.withDeadline(Date.now() + TEMPORAL_DEADLINE_MS, () => handle.describe());
  } catch (e) {
    return { state: e instanceof WorkflowNotFoundError ? "not_found" : "unknown", runId: null, progress: null };
  }
  if (description.status.name !== "RUNNING") return { state: "ended", runId: description.runId, progress: null };
  const progress = query ? await client.withDeadline(Date.now() + TEMPORAL_DEADLINE_MS, () => handle.query(query)).catch(() => null) : null;
  return { state: "running", runId: description.runId, progress };
}

/**
 * The workflow's latest snapshot from the cache. `since`: when the caller's record of the run was made (its row's
 * creation or start time); an answer older than that cannot know the run and is not used.
 */
export function workflowSnapshot<T>(workflowId: string, query: QueryDefinition<T> | null, since?: Date | null): Promise<WorkflowSnapshot<T>> {
  return progressCache().read(`workflow:${workflowId}`, () => fetchWorkflowSnapshot(workflowId, query), {
    notBefore: since?.getTime() ?? null,
    ended: (s) => s.state === "ended",
  });
}

/** A run was just started under this id: the next reader asks Temporal rather than serve the last run's answer. */
export function forgetWorkflow(workflowId: string): void {
  progressCache().forget(`workflow:${workflowId}`);
}

/**
 * The row says "processing" but its run ended without recording the outcome (an operator terminated it in the
 * Temporal UI, or its history was lost). Only a definite answer counts; a row younger than `graceMs` is given
 * time, since a run started a moment ago may not be visible yet.
 */
export function endedUnrecorded(snapshot: WorkflowSnapshot<unknown>, startedAt: Date | null | undefined, graceMs = 10_000): boolean {
  if (startedAt && Date.now() - startedAt.getTime() < graceMs) return false;
  return snapshot.state === "ended" || snapshot.state === "not_found";
}
