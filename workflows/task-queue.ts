// Shared by the worker and every client that starts workflows. No I/O here: workflows import it too.
export const DEFAULT_TASK_QUEUE = "reelsmith";

export function taskQueue(): string {
  return process.env.TEMPORAL_TASK_QUEUE || DEFAULT_TASK_QUEUE;
}
