// Issue 24's "done when": a French project with no keys, through the real routes and workflows, gets a French
// script from the offline writer, French speech from eSpeak NG (the voice recorded on each scene is French, the
// audio stream is real), and a rendered video (tiny: a 10 s Short at 180x320). A German project, which the
// offline writer cannot write, says so on /script and keeps its German voice.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { prisma } from "~/core/db.server";
import { findMediaForUser, mediaFilePath, mediaIdFromUrl } from "~/core/storage.server";
import { action as createAction, loader as createLoader } from "~/routes/script/create";
import { action as generateScript } from "~/routes/script/api.generate-script";
import { loader as scriptPage } from "~/routes/script/script";
import { action as narration } from "~/routes/projects/api.projects.$id.narration";
import { scriptWorkflowId } from "../../workflows/shared/script";
import { storyboardWorkflow } from "../../workflows/storyboard";
import { generateAllContentWorkflow } from "../../workflows/scene-media";
import { renderVideoWorkflow } from "../../workflows/render";
import { renderWorkflowId } from "../../workflows/shared/render";
import { probeVideo } from "../fixtures/video-probe";
import { createTestUser, sessionCookieFor } from "../support/auth";
import { callRoute } from "../support/routes";
import { startTestWorker } from "../support/temporal";

const run = promisify(execFile);
const base = "http://localhost:3000";
const ENGLISH_WORDS = /\b(?:the|and|is|of|that|this|with|for)\b/gi;

let testWorker: Awaited<ReturnType<typeof startTestWorker>>;
beforeAll(async () => {
  testWorker = await startTestWorker();
});
afterAll(async () => {
  await testWorker?.stop();
  await prisma.$disconnect();
});

async function create(cookie: string, fields: Record<string, string>) {
  const response = await callRoute(
    createAction,
    new Request(`${base}/create`, { method: "POST", headers: { Cookie: cookie, "Content-Type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(fields) }),
  );
  return { status: response.status, body: (await response.json()) as { ok: boolean; message?: string; field?: string } };
}

async function writeScript(cookie: string, details: Record<string, unknown>, projectId: string) {
  const response = await callRoute(
    generateScript,
    new Request(`${base}/api/generate-script`, { method: "POST", headers: { Cookie: cookie, "Content-Type": "application/json" }, body: JSON.stringify(details) }),
  );
  expect(response.status).toBe(202);
  await testWorker.client.workflow.getHandle(scriptWorkflowId(projectId)).result();
  return (await prisma.script.findUniqueOrThrow({ where: { projectId } })).text!;
}

async function audioStream(file: string) {
  const { stdout } = await run("ffprobe", ["-v", "error", "-show_streams", "-show_format", "-of", "json", file]);
  const data = JSON.parse(stdout) as { streams: { codec_type: string; codec_name: string; sample_rate: string; channels: number }[]; format: { duration: string } };
  return { stream: data.streams.find((s) => s.codec_type === "audio"), duration: Number(data.format.duration) };
}

describe("a French project with no keys", () => {
  it("gets a French script, French speech from eSpeak NG, and a rendered video", { timeout: 600_000 }, async () => {
    const user = await createTestUser();
    const cookie = await sessionCookieFor(user.id);
    const details = { title: "Le secret des abeilles", topic: "Comment les abeilles fabriquent le miel et pollinisent les fleurs", resolution: "9:16", duration: "10" };

    // refused with the field named: an unknown language, a speed out of range
    expect(await create(cookie, { ...details, language: "xx" })).toMatchObject({ status: 400, body: { ok: false, field: "language" } });
    expect(await create(cookie, { ...details, language: "fr", voiceSpeed: "1.5" })).toMatchObject({ status: 400, body: { field: "voiceSpeed", message: "Voice speed must be at most 1.3." } });

    expect(await create(cookie, { ...details, language: "fr", voiceId: "", voiceSpeed: "1.1" })).toMatchObject({ status: 200, body: { ok: true } });
    const project = await prisma.project.findFirstOrThrow({ where: { userId: user.id } });
    expect(project).toMatchObject({ language: "fr", voiceId: null, voiceSpeed: 1.1 });
    // the next /create starts French
    const next = await (await callRoute(createLoader, new Request(`${base}/create`, { headers: { Cookie: cookie } }))).json();
    expect(next.narration).toMatchObject({ language: "fr", voiceSpeed: 1.1 });

    // the script: French, by the offline writer, and /script says which voice will speak, with no English-only note
    const script = await writeScript(cookie, { ...details, duration: 10 }, project.id);
    expect(script).toMatch(/\b(?:les|des|la|le|et)\b/);
    expect(script.match(ENGLISH_WORDS) ?? []).toEqual([]);
    const page = await (await callRoute(scriptPage, new Request(`${base}/script`, { headers: { Cookie: cookie } }))).json();
    expect(page.narration).toMatchObject({ language: "fr", languageLabel: "French (Français)", voiceName: "French (eSpeak NG)", voiceSource: "offline", voiceSpeed: 1.1, scriptNote: null });

    // scenes and their media through the real workflows
    await prisma.storyboard.create({ data: { projectId: project.id, title: project.title, status: "processing" } });
    await testWorker.client.workflow.execute(storyboardWorkflow, {
      taskQueue: testWorker.taskQueue,
      workflowId: `storyboard-${project.id}`,
      args: [{ projectId: project.id, userId: user.id }],
    });
    const all = await testWorker.client.workflow.execute(generateAllContentWorkflow, {
      taskQueue: testWorker.taskQueue,
      workflowId: `generate-all-${project.id}`,
      args: [{ projectId: project.id, userId: user.id }],
    });
    expect(all).toMatchObject({ phase: "done", imagesFailed: 0, voiceoversFailed: 0 });
    const cells = await prisma.storyboardCell.findMany({ where: { storyboard: { projectId: project.id } }, orderBy: { cellIndex: "asc" } });
    expect(cells.length).toBeGreaterThan(0);
    for (const cell of cells) {
      // the voice recorded is French, spoken by eSpeak NG
      expect(cell).toMatchObject({ audioVoiceId: "espeak:fr", audioProvider: "eSpeak NG" });
      const file = await findMediaForUser(user.id, mediaIdFromUrl(cell.audioUrl)!);
      const { stream, duration } = await audioStream(mediaFilePath(file!));
      expect(stream).toMatchObject({ codec_name: "pcm_s16le", sample_rate: "22050", channels: 1 });
      // the scene's length is the real audio's
      expect(Math.abs(duration - cell.audioDuration!)).toBeLessThan(0.05);
      expect(cell.audioDuration).toBeGreaterThan(0.5);
    }

    // a tiny render
    const render = await prisma.renderedVideo.create({ data: { projectId: project.id, status: "processing", workflowId: renderWorkflowId(project.id) } });
    const result = await testWorker.client.workflow.execute(renderVideoWorkflow, {
      taskQueue: testWorker.taskQueue,
      workflowId: renderWorkflowId(project.id),
      args: [{ renderId: render.id, userId: user.id, projectId: project.id, width: 180, height: 320, captions: true }],
    });
    const video = await findMediaForUser(user.id, result.mediaFileId);
    const facts = await probeVideo(mediaFilePath(video!));
    expect(facts.video).toMatchObject({ codec: "h264", width: 180, height: 320 });
    expect(facts.audio?.codec).toBe("aac");
    const spoken = cells.reduce((sum, c) => sum + c.audioDuration!, 0);
    expect(facts.video.durationSeconds).toBeGreaterThanOrEqual(spoken);
  });
});

describe("a German project with no keys", () => {
  it("says on /script that the offline writer writes English and which providers write German; the voice stays German", async () => {
    const user = await createTestUser();
    const cookie = await sessionCookieFor(user.id);
    expect(await create(cookie, { title: "Bienen", topic: "Wie Bienen Honig machen", resolution: "9:16", duration: "5", language: "de" })).toMatchObject({ status: 200 });
    const page = await (await callRoute(scriptPage, new Request(`${base}/script`, { headers: { Cookie: cookie } }))).json();
    expect(page.narration).toMatchObject({ language: "de", voiceName: "German (eSpeak NG)" });
    expect(page.narration.scriptNote).toMatch(/offline script writer writes only English, French and Spanish.*Gemini API key or an OpenAI-compatible model/);

    // the narration can be changed later: French, a female voice, slower; never on another creator's project
    const project = await prisma.project.findFirstOrThrow({ where: { userId: user.id } });
    const put = (who: string, body: unknown) =>
      callRoute(
        narration,
        new Request(`${base}/api/projects/${project.id}/narration`, { method: "PUT", headers: { Cookie: who, "Content-Type": "application/json" }, body: JSON.stringify(body) }),
        { id: project.id },
      );
    const changed = await put(cookie, { language: "fr", voiceId: "espeak:fr+f3", voiceSpeed: 0.8 });
    expect(changed.status).toBe(200);
    expect(await changed.json()).toMatchObject({ language: "fr", voiceId: "espeak:fr+f3", voiceName: "French, female (eSpeak NG)", voiceSpeed: 0.8, scriptNote: null });
    const bad = await put(cookie, { voiceSpeed: 1.4 });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ field: "voiceSpeed" });
    const other = await sessionCookieFor((await createTestUser()).id);
    expect((await put(other, { voiceSpeed: 1 })).status).toBe(404);
    expect(await prisma.project.findUniqueOrThrow({ where: { id: project.id } })).toMatchObject({ language: "fr", voiceSpeed: 0.8 });
  });
});
