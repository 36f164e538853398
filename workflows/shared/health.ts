// The health check's contract: the smallest real pipeline, used by /healthz?deep=1
// (app/server/health.server.ts -> workflows/health-check.ts -> workflows/activities/health-check.ts).

export const healthCheckWorkflowId = (checkId: string) => `health-check-${checkId}`;
export type HealthCheckResult = { workerHost: string; checkedAt: string };
