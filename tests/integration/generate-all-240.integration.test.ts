// A 60-minute 16:9 video's 240 scenes through the storyboard split and Generate All on the offline providers
// (issue 38): every scene filled once, progress counted as the page shows it ("37 of 240"), the workflow's
// Temporal history well inside its limits, and no two neighbouring pictures leading with the same subject.
import { GENERATE_ALL } from "~/lib/constants";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { planChunks, targetWordsFor } from "~/lib/script";
import { sceneCountFor } from "~/lib/storyboard";
import { renderSceneImage } from "~/providers/image/offline-scene.server";
import { pickStoryboardSubjects } from "~/providers/image/scene-subjects.server";
import { providersFor } from "~/providers/index.server";
import { writeOfflineChunk } from "~/providers/text/offline-writer";
import { prisma } from "~/core/db.server";
import { createStoryboardActivities } from "../../workflows/activities/storyboard";
import { generateAllContentWorkflow } from "../../workflows/scene-media";
import { generateAllProgressQuery, type GenerateAllProgress } from "../../workflows/shared/scene-media";
import { storyboardWorkflow } from "../../workflows/storyboard";
import { createTestUser } from "../support/auth";
import { startTestWorker } from "../support/temporal";

const SCENES = 240;
/** A tenth of Temporal's 50,000-event limit on a workflow's history. */
const HISTORY_EVENTS_BOUND = 5_000;

// The offline providers, counted per call; pictures at 256x144 so 240 of them stay cheap.
const offline = providersFor({});
const imageCalls = new Map<number, number>();
const speechCalls = new Map<string, number>();
const mainSubjects = new Map<number, string | undefined>();
const providers = {
  ...offline,
  image: {
    ...offline.image,
    async generateImage(request: Parameters<typeof offline.image.generateImage>[0]) {
      const index = request.storyboard!.index;
      imageCalls.set(index, (imageCalls.get(index) ?? 0) + 1);
      const subjects = pickStoryboardSubjects(request.storyboard!.title, request.storyboard!.scenes)[index];
      const { art, ...image } = await renderSceneImage(request.prompt, request.aspectRatio, request.seed, request.narration, subjects, { width: 256, height: 144 });
      mainSubjects.set(index, art.subjects.main);
      return image;
    },
  },
  speech: {
    ...offline.speech,
    async synthesize(request: Parameters<typeof offline.speech.synthesize>[0]) {
      speechCalls.set(request.text, (speechCalls.get(request.text) ?? 0) + 1);
      return offline.speech.synthesize(request);
    },
  },
};

let testWorker: Awaited<ReturnType<typeof startTestWorker>>;
beforeAll(async () => {
  testWorker = await startTestWorker({ activities: createStoryboardActivities({ providersFor: async () => providers }) });
});
afterAll(async () => {
  await testWorker?.stop();
  await prisma.$disconnect();
});

/**
 * The counts the storyboard's Generate All bar reads while it runs (app/components/storyboard/generate-all-bar.tsx):
 * the pictures while they are made, with the voiceovers made beside them once the first is done (decision 294), then
 * the voiceovers left.
 */
const countsShown = (p: GenerateAllProgress) => {
  const images = { kind: "images", done: p.imagesDone + p.imagesFailed, total: p.imagesTotal };
  const voiceovers = { kind: "voiceovers", done: p.voiceoversDone + p.voiceoversFailed, total: p.voiceoversTotal };
  if (p.phase === "images") return voiceovers.done > 0 ? [images, voiceovers] : [images];
  return p.phase === "voiceovers" ? [voiceovers] : [];
};

describe("Generate All at 240 scenes (a 60-minute 16:9 video)", () => {
  it("splits the script into 240 scenes, fills each once, counts progress right, and keeps the history small", async () => {
    const title = "Secrets of the Coral Reef";
    const topic = "How coral reefs live and grow";
    const user = await createTestUser();
    // Flite's voice: this checks Generate All at 240 scenes, not the voice; the neural voice (decision 205), about three
    // times Flite's work per word, is checked by neural-voice.integration.test.ts
    const project = await prisma.project.create({ data: { userId: user.id, title, topic, resolution: "landscape", durationSeconds: 3600, imageSource: "offline", voiceId: "rms" } });
    expect(sceneCountFor("16:9", 3600)).toBe(SCENES);
    const targets = planChunks(targetWordsFor(3600));
    const script = targets.map((targetWords, chunkIndex) => writeOfflineChunk({ title, topic, chunkIndex, totalChunks: targets.length, targetWords, seed: "240" })).join("\n\n");
    await prisma.script.create({ data: { projectId: project.id, status: "completed", text: script, wordCount: 9000, targetWords: 9000 } });
    await prisma.storyboard.create({ data: { projectId: project.id, title, status: "processing" } });

    const split = await testWorker.client.workflow.execute(storyboardWorkflow, {
      taskQueue: testWorker.taskQueue,
      workflowId: `storyboard-${project.id}`,
      args: [{ projectId: project.id, userId: user.id }],
    });
    expect(split.cellCount).toBe(SCENES);
    const scenes = await prisma.storyboardCell.findMany({ where: { storyboard: { projectId: project.id } }, orderBy: { cellIndex: "asc" } });
    expect(scenes.map((c) => c.cellIndex)).toEqual([...Array(SCENES).keys()]);
    expect(scenes.map((c) => c.voiceoverText).join(" ").replace(/\s+/g, " ")).toBe(script.replace(/\s+/g, " "));
    // The whole narration would take the offline voice about 10 minutes on this machine: each scene speaks its
    // first words only (distinct per scene), which costs Generate All the same calls in a fraction of the time.
    for (const cell of scenes) {
      const words = cell.voiceoverText.split(/\s+/).slice(0, 5).join(" ").replace(/[,;:]$/, "");
      await prisma.storyboardCell.update({ where: { id: cell.id }, data: { voiceoverText: `${cell.cellIndex + 1}. ${words}.` } });
    }

    const handle = await testWorker.client.workflow.start(generateAllContentWorkflow, {
      taskQueue: testWorker.taskQueue,
      workflowId: `generate-all-${project.id}`,
      // no pauses: the Temporal server fires timers about a second late, so the spec's 287 pauses would cost
      // minutes of waiting; their history events are counted below as production would have them
      args: [{ projectId: project.id, userId: user.id, pauses: { imageBatchMs: 0, voiceoverMs: 0 } }],
    });
    const seen: { kind: string; done: number; total: number }[] = [];
    let finished = false;
    const result = handle.result().finally(() => (finished = true));
    while (!finished) {
      const progress = await handle.query(generateAllProgressQuery).catch(() => null);
      if (progress) seen.push(...countsShown(progress));
      await new Promise((r) => setTimeout(r, 250));
    }
    const final = await result;
    const started = performance.now();

    expect(final).toMatchObject({ phase: "done", imagesTotal: SCENES, imagesDone: SCENES, imagesFailed: 0, voiceoversTotal: SCENES, voiceoversDone: SCENES, voiceoversFailed: 0, failures: [] });
    // Progress as the bar shows it: "N of 240", never past the total, never going back, through many steps.
    for (const kind of ["images", "voiceovers"]) {
      const steps = seen.filter((s) => s.kind === kind);
      expect(steps.length, kind).toBeGreaterThan(5);
      expect(steps.every((s) => s.total === SCENES && s.done >= 0 && s.done <= SCENES), kind).toBe(true);
      for (let i = 1; i < steps.length; i++) expect(steps[i]!.done, kind).toBeGreaterThanOrEqual(steps[i - 1]!.done);
      expect(new Set(steps.map((s) => s.done)).size, kind).toBeGreaterThan(5);
    }
    console.info(`progress seen: ${seen.filter((_, i) => i % 40 === 0).map((s) => `${s.kind} ${s.done} of ${s.total}`).join("; ")}`);

    // Every scene filled once: one image and one voiceover call each, one file each, on the scene.
    expect([...imageCalls.keys()].sort((a, b) => a - b)).toEqual([...Array(SCENES).keys()]);
    expect([...imageCalls.values()].every((n) => n === 1)).toBe(true);
    expect(speechCalls.size).toBe(SCENES);
    expect([...speechCalls.values()].every((n) => n === 1)).toBe(true);
    const cells = await prisma.storyboardCell.findMany({ where: { storyboard: { projectId: project.id } }, orderBy: { cellIndex: "asc" } });
    expect(cells.every((c) => c.imageFileId && c.imageUrl && c.audioFileId && c.audioUrl && (c.audioDuration ?? 0) > 0)).toBe(true);
    const files = await prisma.mediaFile.findMany({ where: { projectId: project.id } });
    expect(files.filter((f) => f.kind === "image")).toHaveLength(SCENES);
    expect(files.filter((f) => f.kind === "voiceover")).toHaveLength(SCENES);
    expect(files.filter((f) => f.kind === "image").every((f) => f.width === 256 && f.height === 144)).toBe(true);
    // The pictures of neighbouring scenes lead with different subjects, never the title's coral (decision 142).
    for (let i = 1; i < SCENES; i++) expect(mainSubjects.get(i), `scenes ${i} and ${i + 1}`).not.toBe(mainSubjects.get(i - 1));
    expect([...mainSubjects.values()]).not.toContain("coral");

    // The history: events and bytes, against a tenth of Temporal's limits (50,000 events, 50 MB).
    const history = await handle.fetchHistory();
    const events = history.events?.length ?? 0;
    const bytes = JSON.stringify(history).length; // JSON is larger than the history Temporal stores
    console.info(`generate-all history at ${SCENES} scenes: ${events} events (${(events / SCENES).toFixed(1)} per scene), ${(bytes / 1024).toFixed(0)} KiB as JSON; fetched in ${Math.round(performance.now() - started)} ms`);
    expect(events).toBeGreaterThan(SCENES * 2);
    // each pause is five events in production (timer started and fired, a workflow task scheduled, started, completed)
    const pauses = Math.ceil(SCENES / GENERATE_ALL.imageBatchSize) - 1 + (SCENES - 1);
    const withPauses = events + 5 * pauses;
    console.info(`with the spec's ${pauses} pauses: ${withPauses} events`);
    expect(withPauses).toBeLessThan(HISTORY_EVENTS_BOUND);
    expect(bytes).toBeLessThan(5 * 1024 * 1024);
  }, 900_000);
});
