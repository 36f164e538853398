import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { prisma } from "~/core/db.server";
import { healthReport } from "~/server/health.server";
import { healthCheckWorkflow } from "../../workflows/health-check";
import { startTestWorker } from "../support/temporal";

let testWorker: Awaited<ReturnType<typeof startTestWorker>>;

beforeAll(async () => {
  testWorker = await startTestWorker();
});
afterAll(async () => {
  await testWorker?.stop();
  await prisma.$disconnect();
});

describe("health-check workflow: Temporal -> worker -> database", () => {
  it("runs its activity on the worker, which writes a row to the database", async () => {
    const workflowId = `health-check-${randomUUID()}`;
    const result = await testWorker.client.workflow.execute(healthCheckWorkflow, { taskQueue: testWorker.taskQueue, workflowId });
    const row = await prisma.healthCheck.findUnique({ where: { workflowId } });
    expect(row).not.toBeNull();
    expect(result.workerHost).toBe(row!.workerHost);
    expect(new Date(result.checkedAt).getTime()).toBe(row!.checkedAt.getTime());
  });

  it("reports database, Temporal and worker reachable, and the deep check passes", async () => {
    const report = await healthReport({ deep: true });
    expect(report.database).toEqual({ ok: true });
    expect(report.temporal.ok).toBe(true);
    expect(report.worker).toMatchObject({ ok: true, taskQueue: testWorker.taskQueue });
    expect(report.pipeline?.ok).toBe(true);
    expect(report.ok).toBe(true);
  });
});

describe("migrations", () => {
  it("recorded the applied migrations the way the official Prisma CLI does", async () => {
    const rows = await prisma.$queryRaw<{ migration_name: string; checksum: string; finished_at: Date | null }[]>`
      SELECT migration_name, checksum, finished_at FROM _prisma_migrations ORDER BY migration_name`;
    expect(rows.length).toBeGreaterThan(0);
    expect(rows[0]!.migration_name).toMatch(/^\d{14}_init$/);
    expect(rows[0]!.checksum).toMatch(/^[0-9a-f]{64}$/);
    expect(rows.every((r) => r.finished_at !== null)).toBe(true);
  });
});
