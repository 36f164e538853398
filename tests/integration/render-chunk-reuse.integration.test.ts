// Issue 53's "done when": an edited scene re-renders only its chunk, the others' files unchanged (decision 260). A
// 9 s video of six scenes, cut into chunks of two scenes (RENDER_REUSE_CHUNK_SECONDS=2.5) on one worker process, is
// rendered; then scene 5 gets a new picture, as regenerating it does, and the project is rendered again. The second
// render takes chunks 1 and 2 as the first kept them (the same files, byte for byte) and draws chunk 3 alone; the new
// video's frames are the old one's up to scene 5's chunk, and differ in it; the project keeps only the new chunks.
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { prisma } from "~/core/db.server";
import { findMediaForUser, mediaUrl, saveMedia, withLocalMediaCopy } from "~/core/storage.server";
import { sceneDurationInFrames } from "../../app/lib/timeline/timing";
import { renderVideoWorkflow } from "../../workflows/render";
import { renderWorkflowId } from "../../workflows/shared/render";
import { sceneImage, seedRenderableProject } from "../fixtures/render-project";
import { killWorkerProcess, startWorkerProcess, workerProcessClient } from "../support/worker-process";

const run = promisify(execFile);
const temporal = workerProcessClient();
afterAll(async () => {
  await prisma.$disconnect();
});

// six scenes of 1.5 s (1.2 s of voiceover and the pause): chunks of two scenes at 2.5 s
const SCENE_SECONDS = [1.2, 1.2, 1.2, 1.2, 1.2, 1.2];
const SCENE_FRAMES = sceneDurationInFrames(1.2);

describe("an edited scene and the chunks kept from the last render", () => {
  it("re-renders only the edited scene's chunk; the others' files are the same, and so are their frames", { timeout: 300_000 }, async () => {
    const taskQueue = `${process.env.TEMPORAL_TASK_QUEUE!}-reuse`;
    const worker = await startWorkerProcess("render", {
      taskQueue,
      env: { RENDER_REUSE_CHUNK_SECONDS: "2.5", WORKER_RENDERS: "1" },
    });
    try {
      const user = await prisma.user.create({
        data: { email: `chunk-reuse-${Date.now()}@example.com` },
      });
      const { projectId } = await seedRenderableProject({
        userId: user.id,
        sceneSeconds: SCENE_SECONDS,
      });

      const render = async () => {
        const row = await prisma.renderedVideo.create({
          data: { projectId, status: "processing" },
        });
        const handle = await temporal.client.workflow.start(renderVideoWorkflow, {
          taskQueue,
          workflowId: renderWorkflowId(projectId),
          args: [
            {
              renderId: row.id,
              userId: user.id,
              projectId,
              width: 320,
              height: 180,
              captions: true,
            },
          ],
        });
        const result = await handle.result();
        // what each chunk's activity answered: drawn, or taken as the last render kept it
        const chunks = ((await handle.fetchHistory()).events ?? []).flatMap((e) => {
          const done = e.activityTaskCompletedEventAttributes;
          const payload = done?.result?.payloads?.[0]?.data;
          if (!payload) return [];
          const value = JSON.parse(Buffer.from(payload).toString()) as {
            chunk?: number;
            mediaFileId?: string;
            reused?: boolean;
          };
          return typeof value.chunk === "number" && value.mediaFileId ? [value] : [];
        });
        const file = await findMediaForUser(user.id, result.mediaFileId);
        const frames = await withLocalMediaCopy(
          file!,
          async (local) => (await run("ffmpeg", ["-v", "error", "-i", local, "-map", "0:v", "-f", "framemd5", "-"], { maxBuffer: 1 << 24 })).stdout
        );
        return {
          chunks: chunks.sort((a, b) => a.chunk! - b.chunk!),
          frames: frames
            .split("\n")
            .filter((l) => /^\d/.test(l))
            .map((l) => l.split(",").at(-1)!.trim()),
        };
      };
      const parts = async () => {
        const rows = await prisma.renderChunkPart.findMany({
          where: { projectId },
          orderBy: { createdAt: "asc" },
        });
        return Promise.all(
          rows.map(async (r) => {
            const file = await findMediaForUser(user.id, r.mediaFileId);
            return {
              id: r.mediaFileId,
              sha: await withLocalMediaCopy(file!, async (local) =>
                createHash("sha256")
                  .update(await readFile(local))
                  .digest("hex")
              ),
            };
          })
        );
      };

      const first = await render();
      expect(first.chunks.map((c) => c.reused ?? false)).toEqual([false, false, false]);
      expect(first.frames).toHaveLength(6 * SCENE_FRAMES);
      const kept = await parts();
      expect(kept.map((p) => p.id).sort()).toEqual(first.chunks.map((c) => c.mediaFileId).sort());

      // scene 5 (in the third chunk) gets a new picture: a new stored file, as regenerating it makes
      const cell = await prisma.storyboardCell.findFirstOrThrow({
        where: { storyboard: { projectId }, cellIndex: 4 },
      });
      const image = await saveMedia({
        userId: user.id,
        projectId,
        kind: "image",
        data: await sceneImage(7),
        mimeType: "image/png",
        extension: "png",
        width: 1280,
        height: 720,
      });
      await prisma.storyboardCell.update({
        where: { id: cell.id },
        data: { imageFileId: image.id, imageUrl: mediaUrl(image) },
      });

      const second = await render();
      expect(second.chunks.map((c) => c.reused ?? false)).toEqual([true, true, false]);
      expect(second.chunks.slice(0, 2).map((c) => c.mediaFileId)).toEqual(first.chunks.slice(0, 2).map((c) => c.mediaFileId));
      expect(second.chunks[2]!.mediaFileId).not.toBe(first.chunks[2]!.mediaFileId);
      // the untouched chunks' files are the very same bytes; the edited chunk's old file is gone, its new one kept
      const now = await parts();
      expect(now.map((p) => p.id).sort()).toEqual(second.chunks.map((c) => c.mediaFileId).sort());
      for (const id of first.chunks.slice(0, 2).map((c) => c.mediaFileId)) expect(now.find((p) => p.id === id)!.sha).toBe(kept.find((p) => p.id === id)!.sha);
      expect(
        await prisma.mediaFile.findUnique({
          where: { id: first.chunks[2]!.mediaFileId! },
        })
      ).toBeNull();

      // the viewer sees the same first four scenes and a new fifth
      expect(second.frames).toHaveLength(first.frames.length);
      const cut = 4 * SCENE_FRAMES;
      expect(second.frames.slice(0, cut)).toEqual(first.frames.slice(0, cut));
      expect(second.frames.slice(cut, cut + SCENE_FRAMES).filter((f, i) => f !== first.frames[cut + i]).length).toBe(SCENE_FRAMES);
    } finally {
      await killWorkerProcess(worker);
    }
  });
});
