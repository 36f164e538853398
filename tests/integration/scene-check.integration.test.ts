// Scenes checked against what is said (issue 50, decision 226), through the route, the check-scenes workflow and
// its activity, against the local Gemini fake's vision answers: the scene whose picture does not show what the
// narrator says is marked with the reason and a corrected prompt; one click makes it again from that prompt, the
// new picture is checked again, and the mark clears. Project deletion takes the checks with it.
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { prisma } from "~/core/db.server";
import { deleteProject } from "~/server/project-deletion.server";
import { updateConfig } from "~/core/settings.server";
import { saveMedia } from "~/core/storage.server";
import { loader as videoFactsLoader } from "~/routes/render/api.video-facts";
import { action as sceneChecksAction, loader as sceneChecksLoader } from "~/routes/storyboard/api.scene-checks";
import { sceneCheckWorkflowId } from "../../workflows/shared/scene-check";
import { createTestUser, sessionCookieFor } from "../support/auth";
import { callRoute } from "../support/routes";
import { startTestWorker } from "../support/temporal";

const { gemini } = await vi.hoisted(async () => {
  const { FakeGemini } = await import("../fakes/gemini");
  const gemini = new FakeGemini("gemini-key-for-vision-0123456789");
  process.env.GEMINI_BASE_URL = await gemini.start();
  return { gemini };
});

let worker: Awaited<ReturnType<typeof startTestWorker>>;
beforeAll(async () => {
  worker = await startTestWorker();
}, 60_000);
afterAll(async () => {
  await worker?.stop();
  await gemini.stop();
  await prisma.$disconnect();
});

const base = "http://localhost/api/scene-checks";
type CheckView = { cellIndex: number; passed: boolean; score: number; reason: string; suggestedPrompt: string | null; checkedBy: string };
type ChecksBody = { checks: CheckView[]; summary: { passed: number; checked: number; scenes: number }; running: boolean };

async function creator() {
  const user = await createTestUser();
  await updateConfig(user.id, { geminiApiKey: gemini.apiKey });
  const project = await prisma.project.create({ data: { userId: user.id, title: "Bees", topic: "how bees make honey", resolution: "landscape", durationSeconds: 30 } });
  const storyboard = await prisma.storyboard.create({ data: { projectId: project.id, title: "Bees", status: "completed" } });
  const scenes: [string, string][] = [
    ["Honey bees visiting bright flowers in a meadow", "Bees visit flowers in the meadow."],
    ["A city skyline at night with neon signs", "Inside the hive, workers fold nectar into honeycomb."],
    ["Golden honey dripping from honeycomb", "The honey drips from the honeycomb."],
  ];
  for (const [cellIndex, [imagePrompt, voiceoverText]] of scenes.entries()) {
    const png = await sharp({ create: { width: 640, height: 360, channels: 3, background: { r: 40 + cellIndex * 70, g: 90, b: 30 } } }).png().toBuffer();
    const picture = await saveMedia({ userId: user.id, projectId: project.id, kind: "image", data: png, mimeType: "image/png", extension: "png", width: 640, height: 360 });
    await prisma.storyboardCell.create({
      data: { storyboardId: storyboard.id, cellIndex, imagePrompt, voiceoverText, estimatedDuration: 3, imageUrl: `/api/media/${picture.id}`, imageFileId: picture.id, imageMadeBy: "Leonardo.Ai" },
    });
  }
  return { user, project, cookie: await sessionCookieFor(user.id) };
}

const post = (cookie: string, body: unknown) =>
  callRoute(sceneChecksAction, new Request(base, { method: "POST", headers: { Cookie: cookie, "Content-Type": "application/json" }, body: JSON.stringify(body) }));
const read = async (cookie: string) => (await (await callRoute(sceneChecksLoader, new Request(base, { headers: { Cookie: cookie } }))).json()) as ChecksBody;
const finished = (projectId: string) => worker.client.workflow.getHandle(sceneCheckWorkflowId(projectId)).result();

describe("scenes checked against what is said", () => {
  it("marks the scene whose picture does not show the words; making it again from the corrected prompt clears the mark", async () => {
    const ctx = await creator();
    const started = await post(ctx.cookie, { action: "check" });
    expect(started.status).toBe(202);
    await finished(ctx.project.id);

    // each picture went to Gemini as inline image data, with the scene's words
    const sent = gemini.visionRequests.filter((r) => r.instruction.includes("Bees") || r.instruction.includes("hive") || r.instruction.includes("honey drips"));
    expect(sent).toHaveLength(3);
    expect(sent.every((r) => r.mimeType === "image/png" && r.bytes > 100)).toBe(true);

    let body = await read(ctx.cookie);
    expect(body.summary).toEqual({ passed: 2, checked: 3, scenes: 3 });
    const marked = body.checks.filter((c) => !c.passed);
    expect(marked.map((c) => c.cellIndex)).toEqual([1]);
    expect(marked[0]!.checkedBy).toBe("gemini");
    expect(marked[0]!.reason).toMatch(/hive|workers|nectar|honeycomb/);
    expect(marked[0]!.suggestedPrompt).toMatch(/hive/);

    // a scene that passed has nothing to correct
    expect((await post(ctx.cookie, { action: "remake", cellIndex: 0 })).status).toBe(409);
    expect((await post(ctx.cookie, { action: "remake", cellIndex: "one" })).status).toBe(400);

    const before = await prisma.storyboardCell.findFirstOrThrow({ where: { storyboard: { projectId: ctx.project.id }, cellIndex: 1 } });
    const remade = await post(ctx.cookie, { action: "remake", cellIndex: 1 });
    expect(remade.status).toBe(200);
    const answer = (await remade.json()) as { imageUrl: string; imagePrompt: string };
    expect(answer.imagePrompt).toBe(marked[0]!.suggestedPrompt);
    const after = await prisma.storyboardCell.findFirstOrThrow({ where: { storyboard: { projectId: ctx.project.id }, cellIndex: 1 } });
    expect(after.imageUrl).toBe(answer.imageUrl);
    expect(after.imageUrl).not.toBe(before.imageUrl);
    expect(after.imagePrompt).toBe(marked[0]!.suggestedPrompt);

    await finished(ctx.project.id);
    await prisma.sceneTransitions.create({ data: { projectId: ctx.project.id, kind: "crossfade" } });
    body = await read(ctx.cookie);
    expect(body.checks.find((c) => c.cellIndex === 1)).toMatchObject({ passed: true });
    expect(body.summary).toEqual({ passed: 3, checked: 3, scenes: 3 });

    // the video's facts: how many scenes passed, and how much of the video moves (an AI clip on scene 1 of 3)
    const facts = async () => ((await (await callRoute(videoFactsLoader, new Request("http://localhost/api/video-facts", { headers: { Cookie: ctx.cookie } }))).json()) as { facts: { motion: Record<string, number>; sceneCheck: unknown } }).facts;
    expect((await facts()).sceneCheck).toEqual({ passed: 3, checked: 3, scenes: 3 });
    expect((await facts()).motion).toMatchObject({ totalSeconds: 9, stillSeconds: 9, movingPercent: 0 });
    await prisma.storyboardCell.updateMany({ where: { storyboard: { projectId: ctx.project.id }, cellIndex: 0 }, data: { clipUrl: "/api/media/ai-clip", clipDuration: 3 } });
    await prisma.clipGeneration.create({ data: { userId: ctx.user.id, projectId: ctx.project.id, cellIndex: 0, provider: "veo", model: "veo-3.1-fast-generate-preview", jobId: `op-${ctx.project.id}`, seconds: 4, costCents: 60, source: "picture", status: "succeeded" } });
    await prisma.storyboardCell.updateMany({ where: { storyboard: { projectId: ctx.project.id }, cellIndex: 2 }, data: { clipUrl: "/api/media/own-clip", imageSource: "upload" } });
    expect((await facts()).motion).toEqual({ totalSeconds: 9, aiClipSeconds: 3, clipSeconds: 3, stillSeconds: 3, movingPercent: 67 });

    // the project's checks go with it
    await deleteProject(ctx.user.id, ctx.project.id);
    expect(await prisma.sceneCheck.count({ where: { projectId: ctx.project.id } })).toBe(0);
    expect(await prisma.sceneTransitions.count({ where: { projectId: ctx.project.id } })).toBe(0);
  }, 90_000);

  it("without a key, a picture from the offline illustrator is checked by its own subjects; a picture from elsewhere is not checked", async () => {
    const user = await createTestUser();
    const project = await prisma.project.create({ data: { userId: user.id, title: "Volcanoes", topic: "volcanoes", resolution: "landscape", durationSeconds: 30 } });
    const storyboard = await prisma.storyboard.create({ data: { projectId: project.id, title: "Volcanoes", status: "completed" } });
    const scenes: [string, string, string][] = [
      ["A volcano erupting", "A volcano sends lava down the mountain.", "Offline illustration"],
      ["Abstract", "Nobody knows exactly when it happens again.", "Offline illustration"],
      ["A volcano", "Lava cools into rock.", "Leonardo.Ai"],
    ];
    for (const [cellIndex, [imagePrompt, voiceoverText, imageMadeBy]] of scenes.entries()) {
      const png = await sharp({ create: { width: 64, height: 36, channels: 3, background: { r: 90, g: 30, b: 10 } } }).png().toBuffer();
      const picture = await saveMedia({ userId: user.id, projectId: project.id, kind: "image", data: png, mimeType: "image/png", extension: "png", width: 64, height: 36 });
      await prisma.storyboardCell.create({ data: { storyboardId: storyboard.id, cellIndex, imagePrompt, voiceoverText, estimatedDuration: 3, imageUrl: `/api/media/${picture.id}`, imageFileId: picture.id, imageMadeBy } });
    }
    const cookie = await sessionCookieFor(user.id);
    const visionBefore = gemini.visionRequests.length;
    expect((await post(cookie, { action: "check" })).status).toBe(202);
    await finished(project.id);
    const body = await read(cookie);
    expect(gemini.visionRequests.length).toBe(visionBefore);
    expect(body.checks.every((c) => c.checkedBy === "offline")).toBe(true);
    expect(body.checks.find((c) => c.cellIndex === 0)).toMatchObject({ passed: true });
    // a scene that names nothing with a picture is marked, with the reason; there is no prompt to correct it with
    expect(body.checks.find((c) => c.cellIndex === 1)).toMatchObject({ passed: false, suggestedPrompt: null });
    expect(body.checks.find((c) => c.cellIndex === 1)?.reason).toMatch(/nothing this scene says has a picture/);
    expect((await post(cookie, { action: "remake", cellIndex: 1 })).status).toBe(409);
    expect(body.checks.find((c) => c.cellIndex === 2)).toBeUndefined();
    expect(body.summary).toEqual({ passed: 1, checked: 2, scenes: 3 });
  }, 60_000);
});
