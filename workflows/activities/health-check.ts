import os from "node:os";
import { Context } from "@temporalio/activity";
import { prisma } from "~/core/db.server";
import type { HealthCheckResult } from "../shared/health";

/** Writes a row keyed by the workflow id, so a retried activity does not write twice. */
export async function recordHealthCheck(): Promise<HealthCheckResult> {
  const { workflowExecution, activityId } = Context.current().info;
  const workflowId = workflowExecution?.workflowId ?? `activity-${activityId}`;
  const row = await prisma.healthCheck.upsert({
    where: { workflowId },
    create: { workflowId, workerHost: os.hostname() },
    update: {},
  });
  return { workerHost: row.workerHost, checkedAt: row.checkedAt.toISOString() };
}

export type HealthCheckActivities = { recordHealthCheck: typeof recordHealthCheck };
