// Which of a task queue's pollers (Temporal's DescribeTaskQueue) are alive. The server keeps listing a poller for
// minutes after its worker stopped polling, so a worker that hangs (or was frozen) still looks present. An idle live
// worker's long poll returns within about a minute and it polls again at once, so its last access is never much
// older than that.

/** A poller is counted when it was last seen this recently: a minute of long poll and some slack. */
export const LIVE_POLLER_MS = 90_000;

type Poller = { identity?: string | null; lastAccessTime?: { seconds?: unknown; nanos?: number | null } | null };

/** The identities of the pollers seen within `windowMs` of `now` (one per worker process). */
export function livePollerIdentities(pollers: readonly Poller[] | null | undefined, now = Date.now(), windowMs = LIVE_POLLER_MS): string[] {
  const live = (pollers ?? []).filter((p) => {
    const seenAt = Number(p.lastAccessTime?.seconds ?? 0) * 1000 + Math.floor((p.lastAccessTime?.nanos ?? 0) / 1e6);
    return now - seenAt < windowMs;
  });
  return [...new Set(live.map((p) => p.identity ?? ""))];
}
