// What a failed stage tells a person. Safe in workflows (no I/O, no Node APIs).

/**
 * The message of the innermost cause: an ActivityFailure or WorkflowFailedError wraps the activity's own error,
 * and that one says what went wrong (a rejected key, a missing scene). `fallback` when there is none.
 */
export function innermostMessage(error: unknown, fallback = ""): string {
  let current = error as { message?: string; cause?: unknown } | undefined;
  while (current?.cause && typeof current.cause === "object") current = current.cause as typeof current;
  return current?.message || fallback;
}

/** The failure type of a stage stopped by a full disk (never retried by Temporal; workflows/worker-interruptions.ts). */
export const DISK_FULL = "DiskFull";
export const DISK_FULL_MESSAGE =
  "The server's disk is full, so this step could not save its file (nothing half-saved was kept). Free some space on the server, then try again.";

/** The failure, or a failure it wraps, is a stage stopped by a full disk. */
export function isDiskFullFailure(error: unknown): boolean {
  let current = error as { type?: unknown; cause?: unknown } | undefined;
  for (let depth = 0; current && typeof current === "object" && depth < 10; depth++) {
    if (current.type === DISK_FULL) return true;
    current = current.cause as typeof current;
  }
  return false;
}
