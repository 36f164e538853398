// Batches (issue 32, decision 164): a list of videos (JSON rows, or CSV text with a header of option names) becomes
// one make-video run per row, made by the video-batch workflow at most `concurrency` at once. A creator runs one
// batch at a time, so their videos in progress stay within the per-user pipeline limit. Every row is checked
// before anything starts; another user's batch is a 404.
import { parse as parseCsv } from "csv-parse/sync";
import { z } from "zod";
import type { Prisma } from "~/generated/prisma/client";
import { MakeVideoOptionsSchema, type MakeVideoOptions } from "~/lib/make-video-options";
import type { videoBatchWorkflow } from "../../workflows/video-batch";
import { BATCH_CONCURRENCY, BATCH_MAX_ROWS, videoBatchWorkflowId } from "../../workflows/shared/video-batch";
import { prisma } from "~/core/db.server";
import { toApiVideo, toMakeVideoView, type MakeVideoView } from "./make-video.server";
import { runProgressOf } from "./make-video-progress.server";
import { assertMakeVideoAllowed } from "~/core/video-run.server";
import { forgetWorkflow } from "./progress-cache.server";
import { startWorkflow, WorkflowAlreadyRunningError, workflowIsRunning } from "./temporal.server";
import { refusal } from "~/core/refusal.server";

export { BATCH_CONCURRENCY, BATCH_MAX_ROWS };

/** Columns a CSV row may have, by how their text is read. */
const NUMBER_COLUMNS = new Set(["duration", "voiceSpeed", "musicVolume", "quality"]);
const BOOLEAN_COLUMNS = new Set(["captions", "music", "upload"]);

export const CreateBatchSchema = z
  .object({
    name: z.string().trim().max(100, "name must be at most 100 characters.").optional(),
    concurrency: z.int("concurrency must be a whole number.").min(1, "concurrency must be at least 1.").max(BATCH_CONCURRENCY.max, `concurrency must be at most ${BATCH_CONCURRENCY.max}.`).default(BATCH_CONCURRENCY.default),
    /** One object per video: the options of POST /api/v1/videos. */
    rows: z.array(z.unknown()).min(1, "rows needs at least one video.").max(BATCH_MAX_ROWS, `A batch has at most ${BATCH_MAX_ROWS} rows.`).optional(),
    /** Or CSV text: a header row of option names (title, topic, script, format, duration, ...), one video per line. */
    csv: z.string().max(1_000_000, "csv must be at most 1,000,000 characters.").optional(),
  })
  .strict()
  .refine((b) => Boolean(b.rows) !== Boolean(b.csv), { message: "Send either rows (JSON) or csv (text), not both.", path: ["rows"] });
export type CreateBatch = z.output<typeof CreateBatchSchema>;

function csvRows(text: string): Record<string, unknown>[] {
  let records: Record<string, string>[];
  try {
    records = parseCsv(text, { columns: true, skip_empty_lines: true, trim: true, bom: true });
  } catch (e) {
    throw refusal(400, `csv could not be read: ${(e as Error).message}`, { field: "csv" });
  }
  if (records.length === 0) throw refusal(400, "csv has no rows under its header.", { field: "csv" });
  if (records.length > BATCH_MAX_ROWS) throw refusal(400, `A batch has at most ${BATCH_MAX_ROWS} rows; csv has ${records.length}.`, { field: "csv" });
  return records.map((record, i) => {
    const row: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(record)) {
      if (value === "") continue;
      if (NUMBER_COLUMNS.has(key)) row[key] = Number(value);
      else if (BOOLEAN_COLUMNS.has(key)) {
        const v = value.toLowerCase();
        if (!["true", "false", "yes", "no", "1", "0"].includes(v)) throw refusal(400, `Row ${i + 1}: ${key} must be true or false.`, { field: `rows.${i}.${key}` });
        row[key] = ["true", "yes", "1"].includes(v);
      } else row[key] = value;
    }
    return row;
  });
}

/** Every row as checked options; a 400 names the first bad row and field ("rows.3.duration"). */
export function parseBatchRows(input: CreateBatch): MakeVideoOptions[] {
  const rows = input.rows ?? csvRows(input.csv!);
  return rows.map((row, i) => {
    const parsed = MakeVideoOptionsSchema.safeParse(row);
    if (parsed.success) return parsed.data;
    const issue = parsed.error.issues[0]!;
    const field = ["rows", i, ...issue.path].join(".");
    throw refusal(400, `Row ${i + 1}: ${issue.message}`, { field });
  });
}

export type BatchView = {
  id: string;
  name: string;
  concurrency: number;
  createdAt: string;
  running: boolean;
  counts: { total: number; queued: number; running: number; completed: number; failed: number; cancelled: number };
  rows: (MakeVideoView & { batchRow: number })[];
};

/** A batch as /api/v1 shows it: its rows' files through /api/v1. */
export const toApiBatch = (batch: BatchView) => ({ ...batch, rows: batch.rows.map(toApiVideo) });

async function runningBatchOf(userId: string): Promise<string | null> {
  const recent = await prisma.videoBatch.findMany({ where: { userId, runs: { some: { status: { in: ["queued", "running"] } } } }, select: { id: true, workflowId: true } });
  for (const batch of recent) if (batch.workflowId && (await workflowIsRunning(batch.workflowId))) return batch.id;
  return null;
}

async function startBatchWorkflow(userId: string, batch: { id: string; name: string; concurrency: number }) {
  const workflowId = videoBatchWorkflowId(batch.id);
  await startWorkflow<typeof videoBatchWorkflow>("videoBatchWorkflow", { workflowId, args: [{ batchId: batch.id, userId, concurrency: batch.concurrency }], memo: { userId, projectTitle: `Batch: ${batch.name}` } });
  forgetWorkflow(workflowId);
}

/** Checks every row, records the batch and its rows (queued), and starts the batch workflow. */
export async function createBatch(userId: string, input: CreateBatch): Promise<BatchView> {
  const rows = parseBatchRows(input);
  for (const options of rows) await assertMakeVideoAllowed(userId, options);
  const running = await runningBatchOf(userId);
  if (running) throw refusal(409, "A batch of yours is still running: one batch at a time. Wait for it, or cancel its videos.", { field: null, batchId: running });
  const name = input.name || `Batch of ${rows.length} (${new Date().toISOString().slice(0, 16).replace("T", " ")})`;
  const batch = await prisma.videoBatch.create({
    data: {
      userId,
      name,
      concurrency: input.concurrency,
      workflowId: videoBatchWorkflowId("pending"),
      runs: { create: rows.map((options, i) => ({ userId, options: options as unknown as Prisma.InputJsonValue, status: "queued", stage: "queued", batchRow: i + 1 })) },
    },
  });
  await prisma.videoBatch.update({ where: { id: batch.id }, data: { workflowId: videoBatchWorkflowId(batch.id) } });
  try {
    await startBatchWorkflow(userId, batch);
  } catch (e) {
    await prisma.videoBatch.delete({ where: { id: batch.id } });
    throw e;
  }
  return getBatch(userId, batch.id);
}

export async function getBatch(userId: string, id: string): Promise<BatchView> {
  const batch = await prisma.videoBatch.findFirst({ where: { id, userId }, include: { runs: { orderBy: { batchRow: "asc" } } } });
  if (!batch) throw refusal(404, "Batch not found.", { field: "id" });
  const count = (status: string) => batch.runs.filter((r) => r.status === status).length;
  return {
    id: batch.id,
    name: batch.name,
    concurrency: batch.concurrency,
    createdAt: batch.createdAt.toISOString(),
    running: batch.runs.some((r) => r.status === "queued" || r.status === "running"),
    counts: { total: batch.runs.length, queued: count("queued"), running: count("running"), completed: count("completed"), failed: count("failed"), cancelled: count("cancelled") },
    // a running row's stages as its workflow reports them (at most the batch's few at once), the others from the row
    rows: await Promise.all(batch.runs.map(async (r) => ({ ...toMakeVideoView(r, null, r.status === "running" ? await runProgressOf(r) : undefined), batchRow: r.batchRow ?? 0 }))),
  };
}

/** The user's batches, newest first (at most 20). */
export async function listBatches(userId: string): Promise<BatchView[]> {
  const batches = await prisma.videoBatch.findMany({ where: { userId }, orderBy: { createdAt: "desc" }, take: 20, select: { id: true } });
  return Promise.all(batches.map((b) => getBatch(userId, b.id)));
}

/** Runs the failed and cancelled rows again (a row keeps what it made: its done stages are skipped). 409 while it runs. */
export async function retryBatch(userId: string, id: string): Promise<BatchView> {
  const batch = await prisma.videoBatch.findFirst({ where: { id, userId } });
  if (!batch) throw refusal(404, "Batch not found.", { field: "id" });
  if (batch.workflowId && (await workflowIsRunning(batch.workflowId))) throw refusal(409, "This batch is still running; retry its failed rows once it is done.", { field: "id" });
  const running = await runningBatchOf(userId);
  if (running) throw refusal(409, "Another batch of yours is still running: one batch at a time.", { field: null, batchId: running });
  const retried = await prisma.videoRun.updateMany({ where: { batchId: batch.id, userId, status: { in: ["failed", "cancelled"] } }, data: { status: "queued", error: null, completedAt: null } });
  if (retried.count === 0) throw refusal(409, "No row of this batch failed: nothing to retry.", { field: "id" });
  try {
    await startBatchWorkflow(userId, batch);
  } catch (e) {
    if (e instanceof WorkflowAlreadyRunningError) throw refusal(409, "This batch is already running.", { field: "id" });
    throw e;
  }
  return getBatch(userId, batch.id);
}
