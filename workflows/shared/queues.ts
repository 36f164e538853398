// Work queues by weight (issue 30, decision 155). Workflows and light activities (script, storyboard split,
// metadata, bookkeeping) run on the configured task queue itself; heavy activities (images, voices, clip
// conversion, music generation and mix, thumbnails, YouTube uploads, a chunked render's sound, its loudness and its
// join: decision 298) on `<queue>-heavy`; renders (a whole video, or one chunk of it) on `<queue>-render`, whose slots
// are the worker's render slots, so a busy worker never holds a chunk another worker could start. A queue of renders
// therefore never delays a script; within a queue, long work waits behind short steps (shared/priorities.ts).
import { proxyActivities, workflowInfo, type ActivityInterfaceFor, type ActivityOptions } from "@temporalio/workflow";
import { taskQueueFor, type WorkClass } from "./queue-names";

export { taskQueueFor, WORK_CLASSES, type WorkClass } from "./queue-names";

/**
 * Like proxyActivities, but the activities are scheduled on the heavy or render queue derived from the
 * workflow's own task queue (so a test's queue gets its own heavy and render queues). Safe at module level:
 * the queue is read from workflowInfo() when an activity is called.
 */
export function proxyActivitiesOn<A extends object>(work: Exclude<WorkClass, "light">, options: ActivityOptions): ActivityInterfaceFor<A> {
  return new Proxy({} as ActivityInterfaceFor<A>, {
    get(_target, name) {
      if (typeof name !== "string") return undefined;
      return (...args: unknown[]) => {
        const taskQueue = taskQueueFor(workflowInfo().taskQueue, work);
        const activities = proxyActivities<Record<string, (...a: unknown[]) => Promise<unknown>>>({ ...options, taskQueue });
        return activities[name]!(...args);
      };
    },
  });
}
