// The smallest real pipeline: the web starts it, the worker runs its activity, the activity writes to the
// database. /healthz?deep=1 uses it to prove the whole path works.
import { proxyActivities } from "@temporalio/workflow";
import type * as activities from "./activities";

const { recordHealthCheck } = proxyActivities<typeof activities>({
  startToCloseTimeout: "30 seconds",
  retry: { maximumAttempts: 3, initialInterval: "1 second" },
});

export type HealthCheckResult = { workerHost: string; checkedAt: string };

export async function healthCheckWorkflow(): Promise<HealthCheckResult> {
  return recordHealthCheck();
}
