import { Client, Connection } from "@temporalio/client";
import { afterAll, describe, expect, it } from "vitest";
import { prisma } from "~/core/db.server";
import { generateAllContentWorkflow } from "../../workflows/scene-media";
import { generateAllProgressQuery } from "../../workflows/shared/scene-media";
import { createTestUser } from "../support/auth";
import { killAllWorkerProcesses, killWorkerProcess, startWorkerProcess } from "../support/worker-process";

const taskQueue = `${process.env.TEMPORAL_TASK_QUEUE}-generate-all-kill`;
// each picture takes 4 s (a second batch's picture is still being made a while after it starts, however slow the
// machine), each voiceover 0.6 s
const startSlowWorker = () => startWorkerProcess("slow-storyboard", { taskQueue, env: { SLOW_PROVIDER_DELAY_MS: "4000", SLOW_VOICE_DELAY_MS: "600" } });

afterAll(async () => {
  await killAllWorkerProcesses();
  await prisma.$disconnect();
});

describe("Generate All when the worker is killed in the middle", () => {
  it("finishes after a new worker starts: every scene gets one image and one voiceover", async () => {
    const user = await createTestUser();
    const project = await prisma.project.create({ data: { userId: user.id, title: "Restart", topic: "t", resolution: "shorts", durationSeconds: 30 } });
    const storyboard = await prisma.storyboard.create({ data: { projectId: project.id, title: "Restart", status: "completed" } });
    await prisma.storyboardCell.createMany({
      data: Array.from({ length: 8 }, (_, cellIndex) => ({
        storyboardId: storyboard.id,
        cellIndex,
        imagePrompt: `A honeybee dancing on a comb, scene ${cellIndex + 1}`,
        voiceoverText: `Scene ${cellIndex + 1}: the bee dances to show where the flowers are.`,
        estimatedDuration: 4,
      })),
    });

    const connection = await Connection.connect({ address: process.env.TEMPORAL_ADDRESS! });
    const client = new Client({ connection });
    try {
      const first = await startSlowWorker();
      const handle = await client.workflow.start(generateAllContentWorkflow, {
        taskQueue,
        workflowId: `generate-all-${project.id}`,
        args: [{ projectId: project.id, userId: user.id }],
      });
      // Kill the worker without warning while the second batch of images is being made: the first batch is done
      // and a picture of the second has started (its worker took it), not a moment picked by a clock
      for (;;) {
        const progress = await handle.query(generateAllProgressQuery).catch(() => null);
        const pending = progress && progress.imagesDone >= 5 ? ((await handle.describe()).raw.pendingActivities ?? []) : [];
        if (pending.some((a) => a.activityType?.name === "generateSceneImage" && a.lastStartedTime)) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      expect((await handle.query(generateAllProgressQuery)).imagesDone).toBe(5);
      await killWorkerProcess(first);

      await startSlowWorker();
      const result = await handle.result();
      expect(result).toMatchObject({ imagesTotal: 8, imagesDone: 8, imagesFailed: 0, voiceoversTotal: 8, voiceoversDone: 8, voiceoversFailed: 0 });

      const cells = await prisma.storyboardCell.findMany({ where: { storyboardId: storyboard.id }, orderBy: { cellIndex: "asc" } });
      expect(cells.every((c) => c.imageFileId && c.audioFileId && c.imageUrl && c.audioUrl)).toBe(true);
      // each scene points at its own files, which exist as rows of this project
      const referenced = cells.flatMap((c) => [c.imageFileId!, c.audioFileId!]);
      expect(new Set(referenced).size).toBe(16);
      const files = await prisma.mediaFile.findMany({ where: { id: { in: referenced } } });
      expect(files).toHaveLength(16);
      expect(files.every((f) => f.projectId === project.id)).toBe(true);
    } finally {
      await connection.close();
    }
  });
});
