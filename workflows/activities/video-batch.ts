// The batch workflow's activities (issue 32, decision 164): which rows wait, and giving a row its project when its
// slot comes (made as the API makes one, not the creator's current project). A row the plan refuses is marked
// failed in words and not retried.
import { ApplicationFailure } from "@temporalio/activity";
import type { MakeVideoOptions } from "~/lib/make-video-options";
import { prisma } from "~/core/db.server";
import { isRefusal } from "~/core/refusal.server";
import { createProjectForRun } from "~/core/video-run.server";
import { refusalFailure } from "../worker-refusals";
import { makeVideoWorkflowId } from "../shared/make-video";
import { BATCH_ROW_REFUSED } from "../shared/video-batch";


export function createVideoBatchActivities() {
  return {
    async queuedBatchRows(input: { batchId: string; userId: string }): Promise<string[]> {
      const rows = await prisma.videoRun.findMany({ where: { batchId: input.batchId, userId: input.userId, status: "queued" }, orderBy: { batchRow: "asc" }, select: { id: true } });
      return rows.map((r) => r.id);
    },

    async startBatchRow(input: { runId: string; userId: string }): Promise<{ projectId: string }> {
      const run = await prisma.videoRun.findFirst({ where: { id: input.runId, userId: input.userId } });
      if (!run || run.status !== "queued") throw ApplicationFailure.nonRetryable("This row is no longer waiting (deleted or cancelled).", BATCH_ROW_REFUSED);
      let projectId = run.projectId;
      if (!projectId || !(await prisma.project.findFirst({ where: { id: projectId, userId: input.userId }, select: { id: true } }))) {
        try {
          projectId = (await createProjectForRun(input.userId, run.options as unknown as MakeVideoOptions, false)).id;
        } catch (e) {
          if (!isRefusal(e)) throw e;
          await prisma.videoRun.update({ where: { id: run.id }, data: { status: "failed", error: `Could not start: ${e.message}`, completedAt: new Date() } });
          throw refusalFailure(e, BATCH_ROW_REFUSED);
        }
      }
      await prisma.videoRun.update({
        where: { id: run.id },
        data: { projectId, workflowId: makeVideoWorkflowId(projectId), status: "running", stage: "queued", error: null, startedAt: new Date(), completedAt: null },
      });
      return { projectId };
    },
  };
}

export type VideoBatchActivities = ReturnType<typeof createVideoBatchActivities>;
