// Issue 33 over its routes: the creator's own script (PUT /api/projects/{id}/script, and /create's action) and the
// storyboard's scene editing (POST /api/projects/{id}/scenes). Refusals answer 400/413/404 with a message and
// change nothing; accepted edits move each scene's picture and voiceover with its words.
import { afterAll, describe, expect, it } from "vitest";
import { prisma } from "~/core/db.server";
import { action as putScript } from "~/routes/script/api.projects.$id.script";
import { action as editScenes } from "~/routes/storyboard/api.projects.$id.scenes";
import { action as createVideo } from "~/routes/script/create";
import { action as proofread } from "~/routes/script/api.ai.proofread";
import { OWN_SCRIPT_MAX_CHARS } from "~/lib/own-script";
import { createTestUser, sessionCookieFor } from "../support/auth";
import { callRoute as call } from "../support/routes";

const url = "http://localhost:3000";

afterAll(async () => {
  await prisma.$disconnect();
});

function request(path: string, method: string, cookie: string | null, body: string) {
  return new Request(`${url}${path}`, {
    method,
    headers: { "Content-Type": "application/json", Origin: url, ...(cookie ? { Cookie: cookie } : {}) },
    body,
  });
}
const put = (projectId: string, cookie: string | null, body: unknown) =>
  call(putScript, request(`/api/projects/${projectId}/script`, "PUT", cookie, typeof body === "string" ? body : JSON.stringify(body)), { id: projectId });
const scenes = (projectId: string, cookie: string | null, body: unknown) =>
  call(editScenes, request(`/api/projects/${projectId}/scenes`, "POST", cookie, JSON.stringify(body)), { id: projectId });

/** A user with a Shorts project whose script is split into `texts`, every scene with a picture and a voiceover. */
async function projectWithScenes(texts: string[]) {
  const user = await createTestUser();
  const project = await prisma.project.create({ data: { userId: user.id, title: "Salt", topic: "Salt in history", resolution: "shorts", durationSeconds: 30 } });
  await prisma.user.update({ where: { id: user.id }, data: { currentProjectId: project.id } });
  const script = texts.join("\n\n");
  await prisma.script.create({ data: { projectId: project.id, status: "completed", text: script, wordCount: 10, targetWords: 70, writtenBy: "Offline writer" } });
  const storyboard = await prisma.storyboard.create({ data: { projectId: project.id, title: "Salt", status: "completed" } });
  await prisma.storyboardCell.createMany({
    data: texts.map((voiceoverText, cellIndex) => ({
      storyboardId: storyboard.id,
      cellIndex,
      voiceoverText,
      imagePrompt: `prompt ${cellIndex}`,
      imageUrl: `/api/media/image-${cellIndex}`,
      audioUrl: `/api/media/audio-${cellIndex}`,
      audioDuration: 2,
      estimatedDuration: 2,
    })),
  });
  return { user, project, storyboard, cookie: await sessionCookieFor(user.id) };
}

async function cellsOf(storyboardId: string) {
  return prisma.storyboardCell.findMany({ where: { storyboardId }, orderBy: { cellIndex: "asc" } });
}

const TEXTS = ["Salt is older than any kitchen.", "Rome paid soldiers in salt, the story goes.", "Today it waits beside every highway."];

describe("PUT /api/projects/{id}/script: the creator's own words", () => {
  it("refuses empty, too long, binary and badly formed scripts with a message, and saves nothing", async () => {
    const { project, cookie } = await projectWithScenes(TEXTS);
    const before = await prisma.script.findUniqueOrThrow({ where: { projectId: project.id } });

    const empty = await put(project.id, cookie, { text: " \n---\n\n " });
    expect(empty.status).toBe(400);
    expect((await empty.json()).message).toMatch(/The script is empty/);

    const long = await put(project.id, cookie, { text: "word ".repeat(OWN_SCRIPT_MAX_CHARS / 5 + 10) });
    expect(long.status).toBe(413);
    expect((await long.json()).message).toMatch(/too long: at most 100,000 characters/);

    const binary = await put(project.id, cookie, { text: "PK\u0003\u0004\u0000\u0000binary" });
    expect(binary.status).toBe(400);
    expect((await binary.json()).message).toMatch(/must be plain text/);

    const notJson = await put(project.id, cookie, "text=hello");
    expect(notJson.status).toBe(400);
    const notText = await put(project.id, cookie, { text: 42 });
    expect(notText.status).toBe(400);
    expect((await notText.json()).field).toBe("text");

    const after = await prisma.script.findUniqueOrThrow({ where: { projectId: project.id } });
    expect(after.text).toBe(before.text);
    expect(after.updatedAt).toEqual(before.updatedAt);
  });

  it("answers another user's project (and a signed-out caller) as if it did not exist", async () => {
    const { project } = await projectWithScenes(TEXTS);
    const other = await createTestUser();
    const answer = await put(project.id, await sessionCookieFor(other.id), { text: "Mine now." });
    expect(answer.status).toBe(404);
    expect((await answer.json()).message).toMatch(/Project not found/);
    expect((await put(project.id, null, { text: "Mine now." })).status).toBe(401);
    expect((await prisma.script.findUniqueOrThrow({ where: { projectId: project.id } })).text).toBe(TEXTS.join("\n\n"));
  });

  it("saves the words unchanged and keeps the media of the scenes whose words did not change", async () => {
    const { project, storyboard, cookie } = await projectWithScenes(TEXTS);
    const edited = `${TEXTS[0]}\n\nRome, they say, paid its soldiers in salt.\n---\n${TEXTS[2]}`;
    const answer = await put(project.id, cookie, { text: edited });
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({ scenes: { kept: [0, 2], changed: [1], added: 1, total: 3 } });
    const script = await prisma.script.findUniqueOrThrow({ where: { projectId: project.id } });
    expect(script).toMatchObject({ text: edited, writtenBy: "You", status: "completed" });
    const cells = await cellsOf(storyboard.id);
    expect(cells.map((c) => [c.voiceoverText, c.imageUrl, c.audioUrl])).toEqual([
      [TEXTS[0], "/api/media/image-0", "/api/media/audio-0"],
      ["Rome, they say, paid its soldiers in salt.", null, null],
      [TEXTS[2], "/api/media/image-2", "/api/media/audio-2"],
    ]);
  });
});

describe("POST /api/projects/{id}/scenes: shaping the storyboard", () => {
  it("adds, deletes, moves, splits and merges, each scene's media moving with its words", async () => {
    const { project, storyboard, cookie } = await projectWithScenes(TEXTS);
    const ids = (await cellsOf(storyboard.id)).map((c) => c.id);

    const added = await scenes(project.id, cookie, { action: "add", at: 1, text: "  A new middle scene.  " });
    expect(added.status).toBe(200);
    const addedCells = (await added.json()).storyboardCells as { id: string; voiceoverText: string; imageUrl: string | null; audioUrl: string | null; cellIndex: number }[];
    expect(addedCells.map((c) => c.voiceoverText)).toEqual([TEXTS[0], "A new middle scene.", TEXTS[1], TEXTS[2]]);
    expect(addedCells[1]).toMatchObject({ imageUrl: null, audioUrl: null });
    expect(addedCells.map((c) => c.cellIndex)).toEqual([0, 1, 2, 3]);

    expect((await scenes(project.id, cookie, { action: "move", sceneId: ids[2], to: 0 })).status).toBe(200);
    let cells = await cellsOf(storyboard.id);
    expect(cells.map((c) => c.voiceoverText)).toEqual([TEXTS[2], TEXTS[0], "A new middle scene.", TEXTS[1]]);
    expect(cells[0]).toMatchObject({ id: ids[2], imageUrl: "/api/media/image-2", audioUrl: "/api/media/audio-2" });

    expect((await scenes(project.id, cookie, { action: "delete", sceneId: addedCells[1]!.id })).status).toBe(200);
    cells = await cellsOf(storyboard.id);
    expect(cells.map((c) => c.voiceoverText)).toEqual([TEXTS[2], TEXTS[0], TEXTS[1]]);

    // split scene 3 ("Rome paid soldiers in salt, the story goes.") after "salt,"
    const at = TEXTS[1]!.indexOf(" the story");
    expect((await scenes(project.id, cookie, { action: "split", sceneId: ids[1], at })).status).toBe(200);
    cells = await cellsOf(storyboard.id);
    expect(cells.map((c) => c.voiceoverText)).toEqual([TEXTS[2], TEXTS[0], "Rome paid soldiers in salt,", "the story goes."]);
    expect(cells[2]).toMatchObject({ id: ids[1], imageUrl: "/api/media/image-1", audioUrl: null });
    expect(cells[3]).toMatchObject({ imageUrl: null, audioUrl: null });

    expect((await scenes(project.id, cookie, { action: "merge", sceneId: ids[1] })).status).toBe(200);
    cells = await cellsOf(storyboard.id);
    expect(cells.map((c) => c.voiceoverText)).toEqual([TEXTS[2], TEXTS[0], TEXTS[1]]);
    expect(cells[2]).toMatchObject({ id: ids[1], imageUrl: "/api/media/image-1", audioUrl: null, audioDuration: null });
    expect(cells[0]).toMatchObject({ audioUrl: "/api/media/audio-2" });
  });

  it("refuses bad edits with a message naming the field, and changes nothing", async () => {
    const { project, storyboard, cookie } = await projectWithScenes(TEXTS);
    const before = await cellsOf(storyboard.id);
    const refusals: [unknown, number, RegExp][] = [
      [{ action: "explode" }, 400, /action must be add, delete, move, split or merge/],
      [{ action: "add", at: 0, text: "" }, 400, /needs words/],
      [{ action: "add", at: 0, text: "x".repeat(5001) }, 400, /at most 5,000 characters/],
      [{ action: "add", at: 9, text: "Late." }, 400, /0 to 3/],
      [{ action: "move", sceneId: before[0]!.id, to: 3 }, 400, /0 to 2/],
      [{ action: "split", sceneId: before[0]!.id, at: 0 }, 400, /between two words/],
      [{ action: "merge", sceneId: before[2]!.id }, 400, /no next scene/],
      [{ action: "delete", sceneId: "gone" }, 404, /no longer in the storyboard/],
    ];
    for (const [body, status, message] of refusals) {
      const answer = await scenes(project.id, cookie, body);
      expect(answer.status, JSON.stringify(body)).toBe(status);
      expect((await answer.json()).message).toMatch(message);
    }
    expect(await cellsOf(storyboard.id)).toEqual(before);
  });

  it("answers another user's project with 404 and leaves it alone", async () => {
    const { project, storyboard } = await projectWithScenes(TEXTS);
    const before = await cellsOf(storyboard.id);
    const other = await createTestUser();
    const answer = await scenes(project.id, await sessionCookieFor(other.id), { action: "delete", sceneId: before[0]!.id });
    expect(answer.status).toBe(404);
    expect(await cellsOf(storyboard.id)).toEqual(before);
  });

  it("keeps at least one scene", async () => {
    const { project, storyboard, cookie } = await projectWithScenes(["Only one."]);
    const [only] = await cellsOf(storyboard.id);
    const answer = await scenes(project.id, cookie, { action: "delete", sceneId: only!.id });
    expect(answer.status).toBe(400);
    expect(await cellsOf(storyboard.id)).toHaveLength(1);
  });
});

describe("/create with the creator's own script", () => {
  const form = (cookie: string, fields: Record<string, string>) =>
    new Request(`${url}/create`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: url, Cookie: cookie },
      body: new URLSearchParams(fields).toString(),
    });
  const details = { title: "Salt", topic: "Salt in history", resolution: "9:16", duration: "30", language: "en", voiceId: "", voiceSpeed: "1" };

  it("saves the project with the words as its completed script, exactly as given", async () => {
    const user = await createTestUser();
    const words = "Salt is older than any kitchen.\n---\nRome paid soldiers in salt.";
    const answer = await call(createVideo, form(await sessionCookieFor(user.id), { ...details, scriptSource: "own", script: words }));
    expect(answer.status).toBe(200);
    const project = await prisma.project.findFirstOrThrow({ where: { userId: user.id }, include: { script: true } });
    expect(project.script).toMatchObject({ text: words, status: "completed", writtenBy: "You" });
  });

  it("refuses an empty or binary script before any project is made", async () => {
    const user = await createTestUser();
    const cookie = await sessionCookieFor(user.id);
    const empty = await call(createVideo, form(cookie, { ...details, scriptSource: "own", script: "\n---\n" }));
    expect(empty.status).toBe(400);
    expect(await empty.json()).toMatchObject({ ok: false, field: "script", message: expect.stringMatching(/The script is empty/) });
    const binary = await call(createVideo, form(cookie, { ...details, scriptSource: "own", script: "\u0000\u0001" }));
    expect(binary.status).toBe(400);
    expect(await prisma.project.count({ where: { userId: user.id } })).toBe(0);
  });
});

describe("POST /api/ai/proofread: proofreading offered, never forced", () => {
  const ask = (cookie: string | null, body: unknown) => call(proofread, request("/api/ai/proofread", "POST", cookie, JSON.stringify(body)));

  it("answers a proofread copy and saves nothing", async () => {
    const { project, cookie } = await projectWithScenes(TEXTS);
    const answer = await ask(cookie, { text: "Salt  is old .\n---\nSalt  is old .\n\nRome paid soldiers in salt.", title: "Salt", language: "en" });
    expect(answer.status).toBe(200);
    const body = await answer.json();
    expect(body).toMatchObject({ changed: true, by: "Offline writer" });
    expect(body.text).toContain("Rome paid soldiers in salt.");
    expect((await prisma.script.findUniqueOrThrow({ where: { projectId: project.id } })).text).toBe(TEXTS.join("\n\n"));
  });

  it("refuses what saving refuses, and long scripts", async () => {
    const { cookie } = await projectWithScenes(TEXTS);
    expect((await ask(cookie, { text: "" })).status).toBe(400);
    expect((await ask(cookie, { text: "\u0000" })).status).toBe(400);
    const long = await ask(cookie, { text: "word ".repeat(3001) });
    expect(long.status).toBe(413);
    expect((await long.json()).message).toMatch(/up to 3,000 words/);
    expect((await ask(null, { text: "Hello." })).status).toBe(401);
  });
});
