// The work classes and their task queues' names (decision 155): plain data, for the environment's validation,
// the worker and workflow code alike (workflows/shared/queues.ts schedules activities on them).
export const WORK_CLASSES = ["light", "heavy", "render"] as const;
export type WorkClass = (typeof WORK_CLASSES)[number];

/** The Temporal task queue of a class of work, for a deployment whose base queue is `base`. */
export function taskQueueFor(base: string, work: WorkClass): string {
  return work === "light" ? base : `${base}-${work}`;
}
