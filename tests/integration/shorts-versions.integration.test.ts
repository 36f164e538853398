// One video, many outputs (issue 51): a Short cut from a multi-scene 16:9 source (its own scenes, reframed around
// the offline pictures' subjects, at most the Short length, linked to its source, rendered by the same renderers),
// and an English -> Spanish version made offline with Apertium and spoken by the offline Spanish voice.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import sharp from "sharp";
import { prisma } from "~/core/db.server";
import { deleteProject } from "~/server/project-deletion.server";
import { findMediaForUser, mediaFilePath, mediaUrl, readMedia, saveMedia } from "~/core/storage.server";
import { loader as mediaLoader } from "~/routes/projects/api.media.$id";
import { storedWordTimings } from "../../app/lib/timeline/video-props";
import { action as shortsAction, loader as shortsLoader } from "~/routes/projects/api.projects.$id.shorts";
import { action as versionsAction, loader as versionsLoader } from "~/routes/projects/api.projects.$id.versions";
import { loader as dashboardLoader } from "~/routes/projects/dashboard";
import { loader as v1ShortsLoader } from "~/routes/api-v1/api.v1.projects.$id.shorts";
import { storyboardWorkflow } from "../../workflows/storyboard";
import { generateAllContentWorkflow } from "../../workflows/scene-media";
import { renderVideoWorkflow } from "../../workflows/render";
import { renderWorkflowId } from "../../workflows/shared/render";
import { generateAllWorkflowId } from "../../workflows/shared/scene-media";
import { toneWav } from "../fixtures/render-project";
import { probeVideo } from "../fixtures/video-probe";
import { createTestUser, sessionCookieFor } from "../support/auth";
import { callRoute } from "../support/routes";
import { screenshotsDir } from "../support/screenshots";
import { startTestWorker } from "../support/temporal";

const run = promisify(execFile);

const base = "http://localhost:3000";
const SCRIPT = [
  "Why does an octopus have three hearts? Two of them pump blood through the gills, and one feeds the rest of the body.",
  "The octopus also has blue blood. A copper protein carries oxygen well in cold water near the ocean floor.",
  "Each arm of an octopus can taste and touch on its own. Most of its neurons live in those eight arms.",
  "An octopus can change colour in a fraction of a second. It hides from sharks by matching the rocks around it.",
].join("\n\n");

let testWorker: Awaited<ReturnType<typeof startTestWorker>>;
let userId: string;
let cookie: string;
let sourceId: string;
let music: Buffer;

beforeAll(async () => {
  testWorker = await startTestWorker();
  const user = await createTestUser();
  userId = user.id;
  cookie = await sessionCookieFor(userId);
  // a 16:9 source with real offline pictures, voiceovers and word timings, through the real workflows
  const source = await prisma.project.create({ data: { userId, title: "The octopus and its three hearts", topic: "Octopus biology", resolution: "landscape", durationSeconds: 40, imageSource: "offline" } });
  sourceId = source.id;
  await prisma.script.create({ data: { projectId: sourceId, status: "completed", text: SCRIPT, wordCount: SCRIPT.split(/\s+/).length, targetWords: 90 } });
  await prisma.storyboard.create({ data: { projectId: sourceId, title: source.title, status: "processing" } });
  await testWorker.client.workflow.execute(storyboardWorkflow, { taskQueue: testWorker.taskQueue, workflowId: `storyboard-${sourceId}`, args: [{ projectId: sourceId, userId }] });
  const all = await testWorker.client.workflow.execute(generateAllContentWorkflow, { taskQueue: testWorker.taskQueue, workflowId: generateAllWorkflowId(sourceId), args: [{ projectId: sourceId, userId }] });
  expect(all).toMatchObject({ phase: "done", imagesFailed: 0, voiceoversFailed: 0 });
  // background music chosen on the Music page: the Short and the versions take it along
  music = toneWav(3, 220, 0.4);
  const track = await saveMedia({ userId, projectId: sourceId, kind: "music", data: music, mimeType: "audio/wav", extension: "wav", durationSeconds: 3 });
  await prisma.musicTrack.create({ data: { projectId: sourceId, prompt: "calm ocean", title: "Deep water", status: "completed", audioUrl: mediaUrl(track), mediaFileId: track.id, duration: 3 } });
  await prisma.project.update({ where: { id: sourceId }, data: { musicVolume: 12 } });
}, 300_000);

/** The project's music track: its own file (not the source's), the same sound. */
async function expectOwnMusic(projectId: string) {
  const tracks = await prisma.musicTrack.findMany({ where: { projectId } });
  expect(tracks).toHaveLength(1);
  expect(tracks[0]).toMatchObject({ status: "completed", title: "Deep water", duration: 3 });
  const file = await prisma.mediaFile.findUniqueOrThrow({ where: { id: tracks[0]!.mediaFileId! } });
  expect(file.projectId).toBe(projectId);
  expect((await readMedia(file)).equals(music)).toBe(true);
  expect((await prisma.project.findUniqueOrThrow({ where: { id: projectId } })).musicVolume).toBe(12);
}

/** GET /api/media/<id> as the owner: the status and the bytes. */
async function served(fileId: string) {
  const response = await callRoute(mediaLoader, new Request(`${base}/api/media/${fileId}`, { headers: { Cookie: cookie } }), { id: fileId }).catch((e: unknown) => (e instanceof Response ? e : Promise.reject(e)));
  return { status: response.status, bytes: response.status === 200 ? Buffer.from(await response.arrayBuffer()) : null };
}

afterAll(async () => {
  await testWorker?.stop();
  await prisma.$disconnect();
});

const get = (loader: typeof shortsLoader, url: string, who = cookie) => callRoute(loader, new Request(`${base}${url}`, { headers: { Cookie: who } }), { id: url.split("/projects/")[1]!.split("/")[0]! });
const post = (action: typeof shortsAction, url: string, body: unknown, who = cookie) =>
  callRoute(action, new Request(`${base}${url}`, { method: "POST", headers: { Cookie: who, "Content-Type": "application/json" }, body: JSON.stringify(body) }), { id: url.split("/projects/")[1]!.split("/")[0]! });

describe("Shorts from a video", () => {
  it("suggests runs within the limit, cuts a 9:16 Short linked to its source, subjects inside their crops, and renders it", { timeout: 300_000 }, async () => {
    const cells = await prisma.storyboardCell.findMany({ where: { storyboard: { projectId: sourceId } }, orderBy: { cellIndex: "asc" } });
    expect(cells.length).toBeGreaterThanOrEqual(3);
    const whole = cells.reduce((s, c) => s + c.audioDuration! + 0.3, 0);
    // a limit shorter than the whole video, so a Short is a real cut
    const maxSeconds = Math.max(10, Math.floor(whole * 0.6));
    const options = await (await get(shortsLoader, `/api/projects/${sourceId}/shorts?maxSeconds=${maxSeconds}`)).json();
    expect(options.ready).toBe(true);
    expect(options.suggestions.length).toBeGreaterThan(0);
    for (const s of options.suggestions) expect(s.seconds).toBeLessThanOrEqual(maxSeconds);
    // the question opens a run: the rule-based pick leads with it
    expect(options.suggestions[0]).toMatchObject({ fromScene: 0, reason: "Opens with a question" });
    // programs get the same through /api/v1, and a bound out of range is a problem naming the field
    const v1 = await get(v1ShortsLoader, `/api/v1/projects/${sourceId}/shorts?maxSeconds=${maxSeconds}`);
    expect(v1.status).toBe(200);
    expect((await v1.json()).suggestions).toEqual(options.suggestions);
    const tooMuch = await get(v1ShortsLoader, `/api/v1/projects/${sourceId}/shorts?maxSeconds=999`);
    expect(tooMuch.status).toBe(400);
    expect(await tooMuch.json()).toMatchObject({ field: "maxSeconds" });

    // refused: a run longer than the limit (422), scenes the wrong way round (400), another creator's video (404)
    const tooLong = await post(shortsAction, `/api/projects/${sourceId}/shorts`, { fromScene: 0, toScene: cells.length - 1, maxSeconds: 10 });
    expect(tooLong.status).toBe(422);
    expect(await tooLong.json()).toMatchObject({ field: "toScene", limit: 10 });
    const backwards = await post(shortsAction, `/api/projects/${sourceId}/shorts`, { fromScene: 2, toScene: 1 });
    expect(backwards.status).toBe(400);
    expect(await backwards.json()).toMatchObject({ field: "toScene" });
    const stranger = await sessionCookieFor((await createTestUser()).id);
    expect((await post(shortsAction, `/api/projects/${sourceId}/shorts`, { fromScene: 0, toScene: 0 }, stranger)).status).toBe(404);

    const pick = options.suggestions[0];
    const made = await post(shortsAction, `/api/projects/${sourceId}/shorts`, { fromScene: pick.fromScene, toScene: pick.toScene, hook: "Three hearts? Really?", maxSeconds });
    expect(made.status).toBe(201);
    const short = await made.json();
    expect(short.seconds).toBeLessThanOrEqual(maxSeconds);
    const project = await prisma.project.findUniqueOrThrow({ where: { id: short.projectId }, include: { storyboard: { include: { cells: { orderBy: { cellIndex: "asc" } } } } } });
    expect(project).toMatchObject({ resolution: "shorts", sourceProjectId: sourceId, derivedKind: "short" });
    await expectOwnMusic(project.id);
    const shortCells = project.storyboard!.cells;
    // the run's scenes, then the end card
    expect(shortCells.length).toBe(pick.toScene - pick.fromScene + 2);
    expect(shortCells.slice(0, -1).map((c) => c.voiceoverText)).toEqual(cells.slice(pick.fromScene, pick.toScene + 1).map((c) => c.voiceoverText));
    expect(shortCells.at(-1)).toMatchObject({ voiceoverText: "", audioDuration: 2.5 });
    for (const cell of shortCells) {
      const picture = await sharp(await readMedia((await findMediaForUser(userId, cell.imageFileId!))!)).metadata();
      expect([picture.width, picture.height]).toEqual([1080, 1920]);
    }
    // every offline picture reframed around its subject, the subject's box inside the crop
    for (const r of short.reframing) {
      expect(r.method).toBe("subject");
      expect(r.subject).not.toBeNull();
      expect(r.subject.left).toBeGreaterThanOrEqual(r.crop.left);
      expect(r.subject.top).toBeGreaterThanOrEqual(r.crop.top);
      expect(r.subject.left + r.subject.size).toBeLessThanOrEqual(r.crop.left + r.crop.width);
      expect(r.subject.top + r.subject.size).toBeLessThanOrEqual(r.crop.top + r.crop.height);
    }

    // the dashboard shows it under its source
    const dashboard = await (await callRoute(dashboardLoader, new Request(`${base}/dashboard`, { headers: { Cookie: cookie } }))).json();
    expect(dashboard.projects.find((p: { id: string }) => p.id === short.projectId)).toMatchObject({ sourceProjectId: sourceId, derivedKind: "short" });

    // rendered by the same renderers, small: 9:16, no longer than the limit
    const render = await prisma.renderedVideo.create({ data: { projectId: project.id, status: "processing", workflowId: renderWorkflowId(project.id) } });
    const result = await testWorker.client.workflow.execute(renderVideoWorkflow, {
      taskQueue: testWorker.taskQueue,
      workflowId: renderWorkflowId(project.id),
      args: [{ renderId: render.id, userId, projectId: project.id, width: 270, height: 480, captions: true, captionStyle: { preset: "boxed", position: "bottom", size: "medium" } }],
    });
    const rendered = mediaFilePath((await findMediaForUser(userId, result.mediaFileId))!);
    const facts = await probeVideo(rendered);
    expect(facts.video).toMatchObject({ width: 270, height: 480 });
    // a frame for people to look at: the hook, the reframed subject, the caption in the safe zone
    await run("ffmpeg", ["-v", "error", "-ss", "1.5", "-i", rendered, "-frames:v", "1", "-y", path.join(screenshotsDir(), "short-rendered-frame.png")]);
    expect(facts.video.durationSeconds).toBeLessThanOrEqual(maxSeconds);
    expect(facts.video.durationSeconds).toBeGreaterThan(short.seconds - 1);
  });
});

describe("a version in another language", () => {
  it("translates English to Spanish offline with Apertium, keeps the same pictures and speaks Spanish", { timeout: 300_000 }, async () => {
    const options = await (await get(versionsLoader, `/api/projects/${sourceId}/versions`)).json();
    expect(options.targets.map((t: { code: string }) => t.code)).toContain("es");
    expect((await post(versionsAction, `/api/projects/${sourceId}/versions`, { language: "xx" })).status).toBe(400);
    const made = await post(versionsAction, `/api/projects/${sourceId}/versions`, { language: "es" });
    expect(made.status).toBe(201);
    const version = await made.json();
    expect(version).toMatchObject({ language: "es", translatedBy: "Apertium (machine translation)", voiceovers: "started" });
    await testWorker.client.workflow.getHandle(generateAllWorkflowId(version.projectId)).result();

    const [source, cells] = await Promise.all(
      [sourceId, version.projectId].map((projectId) => prisma.storyboardCell.findMany({ where: { storyboard: { projectId } }, orderBy: { cellIndex: "asc" } })),
    );
    expect(cells!.length).toBe(source!.length);
    const project = await prisma.project.findUniqueOrThrow({ where: { id: version.projectId } });
    expect(project).toMatchObject({ language: "es", sourceProjectId: sourceId, derivedKind: "version" });
    expect(project.title).toMatch(/pulpo/i);
    await expectOwnMusic(project.id);
    for (const [i, cell] of cells!.entries()) {
      // the same picture in its own file, a Spanish text, a Spanish voice, captions whose words are the text's
      expect(cell.imageFileId).not.toBe(source![i]!.imageFileId);
      const [own, original] = await Promise.all([cell.imageFileId!, source![i]!.imageFileId!].map(async (id) => readMedia(await prisma.mediaFile.findUniqueOrThrow({ where: { id } }))));
      expect(own!.equals(original!)).toBe(true);
      expect(cell.voiceoverText).not.toBe(source![i]!.voiceoverText);
      expect(cell.voiceoverText).toMatch(/\b(el|la|los|las|de|y|un|una)\b/i);
      expect(cell.audioVoiceId).toMatch(/es/);
      const timings = storedWordTimings(cell.wordTimings);
      const norm = (s: string) => s.toLowerCase().replace(/[^\p{L}\p{N}\s]/gu, "").split(/\s+/).filter(Boolean);
      expect(norm(timings!.words.map((w) => w.text).join(" "))).toEqual(norm(cell.voiceoverText));
    }
  });

  it("deleting either project leaves the other's pictures and music: a deleted version, then the deleted source", { timeout: 300_000 }, async () => {
    const sourceCells = await prisma.storyboardCell.findMany({ where: { storyboard: { projectId: sourceId } }, orderBy: { cellIndex: "asc" } });
    const sourceTrack = await prisma.musicTrack.findFirstOrThrow({ where: { projectId: sourceId } });
    const sourceFiles = [...sourceCells.flatMap((c) => [c.imageFileId!, c.audioFileId!]), sourceTrack.mediaFileId!];
    const before = await Promise.all(sourceFiles.map(served));
    expect(before.map((b) => b.status)).toEqual(sourceFiles.map(() => 200));

    // a second version, deleted: the source's files all still serve, byte for byte
    const second = await (await post(versionsAction, `/api/projects/${sourceId}/versions`, { language: "es", voiceovers: false })).json();
    const secondFiles = (await prisma.mediaFile.findMany({ where: { projectId: second.projectId } })).map((f) => f.id);
    expect(secondFiles.length).toBe(sourceCells.length + 1);
    expect((await deleteProject(userId, second.projectId)).filesRemoved).toBe(secondFiles.length);
    expect((await Promise.all(secondFiles.map(served))).map((r) => r.status)).toEqual(secondFiles.map(() => 404));
    const after = await Promise.all(sourceFiles.map(served));
    after.forEach((a, i) => expect(a.status === 200 && a.bytes!.equals(before[i]!.bytes!)).toBe(true));

    // the source deleted: the first version's pictures and music still serve, and it still renders
    const version = await prisma.project.findFirstOrThrow({ where: { sourceProjectId: sourceId, derivedKind: "version" } });
    await deleteProject(userId, sourceId);
    expect((await Promise.all(sourceFiles.map(served))).map((r) => r.status)).toEqual(sourceFiles.map(() => 404));
    const cells = await prisma.storyboardCell.findMany({ where: { storyboard: { projectId: version.id } }, orderBy: { cellIndex: "asc" } });
    const track = await prisma.musicTrack.findFirstOrThrow({ where: { projectId: version.id } });
    const versionFiles = [...cells.map((c) => c.imageFileId!), track.mediaFileId!];
    (await Promise.all(versionFiles.map(served))).forEach((r, i) => expect(r.status, versionFiles[i]).toBe(200));
    const render = await prisma.renderedVideo.create({ data: { projectId: version.id, status: "processing", workflowId: renderWorkflowId(version.id) } });
    const result = await testWorker.client.workflow.execute(renderVideoWorkflow, {
      taskQueue: testWorker.taskQueue,
      workflowId: renderWorkflowId(version.id),
      args: [{ renderId: render.id, userId, projectId: version.id, width: 320, height: 180, captions: false }],
    });
    const facts = await probeVideo(mediaFilePath((await findMediaForUser(userId, result.mediaFileId))!));
    expect(facts.video).toMatchObject({ width: 320, height: 180 });
  });
});
