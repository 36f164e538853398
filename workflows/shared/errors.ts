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
