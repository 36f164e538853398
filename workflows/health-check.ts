// The smallest real pipeline: the web starts it, the worker runs its activity, the activity writes to the
// database. /healthz?deep=1 uses it to prove the whole path works.
import { proxyActivities } from "@temporalio/workflow";
import type { HealthCheckActivities } from "./activities/health-check";
import type { HealthCheckResult } from "./shared/health";

const { recordHealthCheck } = proxyActivities<HealthCheckActivities>({
  startToCloseTimeout: "30 seconds",
  retry: { maximumAttempts: 3, initialInterval: "1 second" },
});

export async function healthCheckWorkflow(): Promise<HealthCheckResult> {
  return recordHealthCheck();
}
