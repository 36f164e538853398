import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { providersFor } from "~/providers/index.server";
import { prisma } from "~/core/db.server";
import { mediaFilePath } from "~/core/storage.server";
import { installedPiperVoices, PIPER_PROVIDER } from "~/providers/speech/piper-voices.server";
import { action as editCell } from "~/routes/storyboard/api.storyboard-cell";
import { loader as readCells } from "~/routes/storyboard/api.storyboards";
import { loader as media } from "~/routes/projects/api.media.$id";
import { action as generateImage } from "~/routes/storyboard/api.ai.generate-image";
import { action as generateStoryboards } from "~/routes/storyboard/api.generate-storyboards";
import { loader as storyboardStatus } from "~/routes/storyboard/api.storyboard-status";
import { sceneCountFor } from "~/lib/storyboard";
import { createStoryboardActivities } from "../../workflows/activities/storyboard";
import { generateAllContentWorkflow, sceneVoiceoverWorkflow } from "../../workflows/scene-media";
import { storyboardWorkflow } from "../../workflows/storyboard";
import { createTestUser, sessionCookieFor } from "../support/auth";
import { callRoute } from "../support/routes";
import { startTestWorker } from "../support/temporal";

const base = "http://localhost:3000";
const SCRIPT = [
  "Cats purr when they are content, but that is only the start of the story.",
  "The sound comes from the larynx, where muscles twitch many times a second.",
  "Each twitch opens and closes the glottis, and the air makes a steady rumble.",
  "Kittens purr to tell their mother that all is well while they feed.",
  "Adult cats also purr when they are hurt, which may help them heal.",
  "Some studies suggest that the low frequencies even strengthen bones.",
  "So the next time a cat purrs on your lap, listen closely to that tiny engine.",
].join(" ");

// Offline providers, except that the image of scene 3 always fails, for good (a refused prompt).
const offline = providersFor({});
const failingScene = 2;
/** Called with the words each voice speaks, before it speaks them (a test may edit the scene meanwhile). */
let beforeSpeaking: (text: string) => Promise<void> = async () => {};
/** When each voice began to speak and each picture was made (ms since the epoch): Generate All's overlap. */
const spokenAt: number[] = [];
const pictureMadeAt: number[] = [];
const providers = {
  ...offline,
  speech: {
    ...offline.speech,
    async synthesize(request: Parameters<typeof offline.speech.synthesize>[0]) {
      spokenAt.push(Date.now());
      await beforeSpeaking(request.text);
      return offline.speech.synthesize(request);
    },
  },
  image: {
    ...offline.image,
    async generateImage(request: Parameters<typeof offline.image.generateImage>[0]) {
      if (request.seed?.includes(`:${failingScene}:`)) {
        throw Object.assign(new Error("The image model refused this prompt"), { retryable: false, name: "ProviderRejectedError" });
      }
      const picture = await offline.image.generateImage(request);
      pictureMadeAt.push(Date.now());
      return picture;
    },
  },
};

/** When each scene's picture and voiceover activity began (ms since the epoch), in the order they began. */
const activityStarts: { kind: "image" | "voiceover"; at: number }[] = [];
const storyboardActivities = createStoryboardActivities({ providersFor: async () => providers });

let testWorker: Awaited<ReturnType<typeof startTestWorker>>;
beforeAll(async () => {
  testWorker = await startTestWorker({
    activities: {
      ...storyboardActivities,
      generateSceneImage: (input: Parameters<typeof storyboardActivities.generateSceneImage>[0]) => {
        activityStarts.push({ kind: "image", at: Date.now() });
        return storyboardActivities.generateSceneImage(input);
      },
      generateSceneVoiceover: (input: Parameters<typeof storyboardActivities.generateSceneVoiceover>[0]) => {
        activityStarts.push({ kind: "voiceover", at: Date.now() });
        return storyboardActivities.generateSceneVoiceover(input);
      },
    },
  });
});
afterAll(async () => {
  await testWorker?.stop();
  await prisma.$disconnect();
});

async function projectWithScript() {
  const user = await createTestUser();
  const project = await prisma.project.create({ data: { userId: user.id, title: "Why Cats Purr", topic: "purring", resolution: "shorts", durationSeconds: 30 } });
  await prisma.user.update({ where: { id: user.id }, data: { currentProjectId: project.id } });
  await prisma.script.create({ data: { projectId: project.id, status: "completed", text: SCRIPT, wordCount: 90, targetWords: 75 } });
  await prisma.storyboard.create({ data: { projectId: project.id, title: project.title, status: "processing" } });
  return { user, project, cookie: await sessionCookieFor(user.id) };
}

describe("storyboard and scene media on a real Temporal server", () => {
  let ctx: Awaited<ReturnType<typeof projectWithScript>>;

  it("splits the script into scenes sized for a 30 s Short, covering the script in order", async () => {
    ctx = await projectWithScript();
    const { cellCount } = await testWorker.client.workflow.execute(storyboardWorkflow, {
      taskQueue: testWorker.taskQueue,
      workflowId: `storyboard-${ctx.project.id}`,
      args: [{ projectId: ctx.project.id, userId: ctx.user.id }],
    });
    expect(cellCount).toBe(sceneCountFor("9:16", 30));
    const body = await (await callRoute(readCells, new Request(`${base}/api/storyboards`, { headers: { Cookie: ctx.cookie } }))).json();
    expect(body.storyboardCells.map((c: { cellIndex: number }) => c.cellIndex)).toEqual([0, 1, 2, 3, 4, 5]);
    const joined = body.storyboardCells.map((c: { voiceoverText: string }) => c.voiceoverText).join(" ");
    expect(joined.replace(/\s+/g, " ")).toBe(SCRIPT);
    for (const cell of body.storyboardCells) {
      expect(cell.imagePrompt.length).toBeGreaterThan(10);
      expect(cell.estimatedDuration).toBeGreaterThan(0);
    }
  });

  it("edits a scene's voiceover text and re-estimates its duration; refuses an empty text naming the field", async () => {
    const put = (body: unknown) =>
      callRoute(editCell, new Request(`${base}/api/storyboard-cell`, { method: "PUT", headers: { Cookie: ctx.cookie, "Content-Type": "application/json" }, body: JSON.stringify(body) }));
    const text = Array(30).fill("purr").join(" ");
    const ok = await put({ cellIndex: 1, voiceoverText: text });
    expect(ok.status).toBe(200);
    expect((await ok.json()).cell).toMatchObject({ cellIndex: 1, voiceoverText: text, estimatedDuration: 12 });

    const empty = await put({ cellIndex: 1, voiceoverText: "   " });
    expect(empty.status).toBe(400);
    expect((await empty.json()).field).toBe("voiceoverText");
    const missing = await put({ cellIndex: 99, imagePrompt: "x" });
    expect(missing.status).toBe(404);
  });

  it("Generate All fills every scene, reports the one image that failed, and finishes the rest", async () => {
    spokenAt.length = 0;
    pictureMadeAt.length = 0;
    activityStarts.length = 0;
    const result = await testWorker.client.workflow.execute(generateAllContentWorkflow, {
      taskQueue: testWorker.taskQueue,
      workflowId: `generate-all-${ctx.project.id}`,
      args: [{ projectId: ctx.project.id, userId: ctx.user.id }],
    });
    expect(result).toMatchObject({ phase: "done", imagesTotal: 6, imagesDone: 5, imagesFailed: 1, voiceoversTotal: 6, voiceoversDone: 6, voiceoversFailed: 0 });
    expect(result.failures).toEqual([{ cellIndex: failingScene, kind: "image", message: "The image model refused this prompt" }]);
    // the voiceovers do not wait for the pictures (decision 294): the first is spoken before the sixth picture, which
    // comes after the first batch of five and the spec's 2 s pause
    expect(pictureMadeAt).toHaveLength(5);
    expect(spokenAt).toHaveLength(6);
    expect(spokenAt[0]!).toBeLessThan(Math.max(...pictureMadeAt));
    // and the chain of voiceovers, the longer of the two, takes its slot on the heavy queue before any picture does
    // (decision 295)
    expect(activityStarts[0]?.kind).toBe("voiceover");
    expect(activityStarts.filter((a) => a.kind === "image")).toHaveLength(6);

    const cells = await prisma.storyboardCell.findMany({ where: { storyboard: { projectId: ctx.project.id } }, orderBy: { cellIndex: "asc" } });
    expect(cells.filter((c) => c.imageUrl).map((c) => c.cellIndex)).toEqual([0, 1, 3, 4, 5]);
    expect(cells.every((c) => c.audioUrl && (c.audioDuration ?? 0) > 0.5)).toBe(true);
    // which provider made each picture and voice is recorded, for the page to say (docs/decisions/081)
    expect(cells.filter((c) => c.imageUrl).every((c) => c.imageMadeBy === "Offline illustration")).toBe(true);
    expect(cells.find((c) => c.cellIndex === failingScene)?.imageMadeBy).toBeNull();
    // English's offline default: the neural voice where one is installed (npm test installs it), else Flite
    expect(cells.every((c) => c.voiceMadeBy === (installedPiperVoices().length ? PIPER_PROVIDER : "Offline voice (Flite)"))).toBe(true);
    // the files are really there, with the sizes and kinds the scenes need
    const files = await prisma.mediaFile.findMany({ where: { projectId: ctx.project.id } });
    expect(files.filter((f) => f.kind === "image")).toHaveLength(5);
    expect(files.filter((f) => f.kind === "voiceover")).toHaveLength(6);
    for (const f of files) expect(fs.statSync(mediaFilePath(f)).size).toBe(Number(f.bytes));
    expect(files.filter((f) => f.kind === "image").every((f) => f.width === 1080 && f.height === 1920)).toBe(true);
  });

  it("regenerating a scene's image replaces its file; a refused prompt answers with the provider's reason", async () => {
    const post = (cellIndex: number) =>
      callRoute(
        generateImage,
        new Request(`${base}/api/ai/generate-image`, {
          method: "POST",
          headers: { Cookie: ctx.cookie, "Content-Type": "application/json" },
          body: JSON.stringify({ prompt: "a cat", cellIndex }),
        }),
      );
    const before = await prisma.storyboardCell.findFirstOrThrow({ where: { storyboard: { projectId: ctx.project.id }, cellIndex: 0 } });
    const ok = await post(0);
    expect(ok.status).toBe(200);
    const { imageUrl } = await ok.json();
    expect(imageUrl).toMatch(/^\/api\/media\//);
    expect(imageUrl).not.toBe(before.imageUrl);
    expect(await prisma.mediaFile.findUnique({ where: { id: before.imageFileId! } })).toBeNull();
    expect(await prisma.mediaFile.count({ where: { projectId: ctx.project.id, kind: "image" } })).toBe(5);

    const refused = await post(failingScene);
    expect(refused.status).toBe(502);
    expect((await refused.json()).message).toBe("The image model refused this prompt");
    const missing = await post(99);
    expect(missing.status).toBe(404);
  });

  it("new words for a scene drop the voiceover that said the old ones; the same words keep it", async () => {
    const put = (body: unknown) =>
      callRoute(editCell, new Request(`${base}/api/storyboard-cell`, { method: "PUT", headers: { Cookie: ctx.cookie, "Content-Type": "application/json" }, body: JSON.stringify(body) }));
    const before = await prisma.storyboardCell.findFirstOrThrow({ where: { storyboard: { projectId: ctx.project.id }, cellIndex: 2 } });
    expect(before.audioUrl).not.toBeNull();
    const same = await put({ cellIndex: 2, voiceoverText: before.voiceoverText, imagePrompt: "A cat asleep on a warm windowsill" });
    expect((await same.json()).cell).toMatchObject({ audioUrl: before.audioUrl, imagePrompt: "A cat asleep on a warm windowsill" });
    const changed = await put({ cellIndex: 2, voiceoverText: "Every purr is a tiny engine humming in the dark." });
    expect(changed.status).toBe(200);
    expect((await changed.json()).cell).toMatchObject({ voiceoverText: "Every purr is a tiny engine humming in the dark.", audioUrl: null });
    const after = await prisma.storyboardCell.findUniqueOrThrow({ where: { id: before.id } });
    expect([after.audioFileId, after.audioDuration, after.voiceMadeBy, after.imageUrl]).toEqual([null, null, null, before.imageUrl]);
  });

  it("new words typed while the scene's voice is made: that voice is thrown away and the new words are spoken", async () => {
    const NEWER = "A purr can be as loud as a quiet conversation.";
    const spoken: string[] = [];
    beforeSpeaking = async (text) => {
      spoken.push(text);
      if (spoken.length === 1) {
        const put = new Request(`${base}/api/storyboard-cell`, { method: "PUT", headers: { Cookie: ctx.cookie, "Content-Type": "application/json" }, body: JSON.stringify({ cellIndex: 3, voiceoverText: NEWER }) });
        expect((await callRoute(editCell, put)).status).toBe(200);
      }
    };
    try {
      const before = await prisma.storyboardCell.findFirstOrThrow({ where: { storyboard: { projectId: ctx.project.id }, cellIndex: 3 } });
      const voices = () => prisma.mediaFile.count({ where: { projectId: ctx.project.id, kind: "voiceover" } });
      const count = await voices();
      const result = await testWorker.client.workflow.execute(sceneVoiceoverWorkflow, {
        taskQueue: testWorker.taskQueue,
        workflowId: `scene-voiceover-words-changed-${ctx.project.id}`,
        args: [{ projectId: ctx.project.id, userId: ctx.user.id, cellIndex: 3 }],
      });
      expect(spoken).toEqual([before.voiceoverText, NEWER]);
      const after = await prisma.storyboardCell.findUniqueOrThrow({ where: { id: before.id } });
      expect(after.voiceoverText).toBe(NEWER);
      expect(result.audioUrl).toBe(after.audioUrl);
      expect(after.audioFileId).not.toBeNull();
      expect(after.audioFileId).not.toBe(before.audioFileId);
      // one file more: the new words' voice. The one made for the old words is deleted (the voice the edit dropped
      // stays for Project Maintenance, as any dropped voice does)
      expect(await voices()).toBe(count + 1);
    } finally {
      beforeSpeaking = async () => {};
    }
  });

  it("serves a scene's image to its owner and 404 to anybody else", async () => {
    const cell = await prisma.storyboardCell.findFirstOrThrow({ where: { storyboard: { projectId: ctx.project.id }, imageUrl: { not: null } } });
    const id = cell.imageUrl!.split("/").pop()!;
    const own = await callRoute(media, new Request(`${base}${cell.imageUrl}`, { headers: { Cookie: ctx.cookie } }), { id });
    expect(own.status).toBe(200);
    expect(own.headers.get("Content-Type")).toBe("image/png");
    const stranger = await createTestUser();
    const other = await callRoute(media, new Request(`${base}${cell.imageUrl}`, { headers: { Cookie: await sessionCookieFor(stranger.id) } }), { id });
    expect(other.status).toBe(404);
  });
});

describe("POST /api/generate-storyboards", () => {
  it("starts the split once, says when one exists, and refuses without a script", async () => {
    const user = await createTestUser();
    const cookie = await sessionCookieFor(user.id);
    const project = await prisma.project.create({ data: { userId: user.id, title: "Tides", topic: "the moon", resolution: "landscape", durationSeconds: 300 } });
    await prisma.user.update({ where: { id: user.id }, data: { currentProjectId: project.id } });
    const post = () =>
      callRoute(
        generateStoryboards,
        new Request(`${base}/api/generate-storyboards`, {
          method: "POST",
          headers: { Cookie: cookie, "Content-Type": "application/json" },
          body: JSON.stringify({ script: SCRIPT, title: "Tides", topic: "the moon", resolution: "16:9", duration: 300 }),
        }),
      );
    const status = async () => (await callRoute(storyboardStatus, new Request(`${base}/api/storyboard-status`, { headers: { Cookie: cookie } }))).json();

    const refused = await post();
    expect(refused.status).toBe(400);
    expect((await refused.json()).message).toBe("No script available to generate storyboard from");
    expect(await status()).toMatchObject({ status: "not_found", cellCount: 0 });

    await prisma.script.create({ data: { projectId: project.id, status: "completed", text: SCRIPT, wordCount: 90, targetWords: 750 } });
    const started = await post();
    expect(started.status).toBe(202);
    expect(await started.json()).toMatchObject({ status: "processing" });
    let current = await status();
    for (let i = 0; current.status === "processing" && i < 300; i++) {
      await new Promise((r) => setTimeout(r, 100));
      current = await status();
    }
    // 20 scenes are planned for 5 minutes, but the script has 7 sentences: 7 scenes, none cut inside a sentence
    expect(sceneCountFor("16:9", 300)).toBe(20);
    expect(current).toMatchObject({ status: "completed", cellCount: 7, title: "Tides", splitBy: "Offline writer" });

    const again = await post();
    expect(await again.json()).toMatchObject({ existing: true });
  });
});
