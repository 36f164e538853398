// The offline neural voice (issue 48, decision 205): a 30 s Short's script written by the real script workflow (its
// length planned from the neural voice's measured pace), each scene spoken by the Piper voice npm test installs and
// trimmed as the voiceover activity does. Its voiceovers last what the narration fit planned, within 5 %; its
// captions start each word on the frame the model's own phoneme durations give; a word after a sentence's end starts
// where the voice is heard again; the event loop stays free while it speaks, the voice in a process of its own that
// ends with the worker. A chosen voice whose file is gone is spoken by the labelled eSpeak NG voice, with
// a message saying what is missing.
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { planNarration } from "~/lib/narration";
import { sceneCountFor } from "~/lib/storyboard";
import { resolutionEnum } from "~/lib/video-format";
import { providersFor } from "~/providers/index.server";
import { speakingRateOf } from "~/providers/speech/speaking-rate.server";
import { trimVoiceover } from "~/providers/speech/voiceover";
import { installedPiperVoices, machineVoicesDir, ownerVoicesDir, PIPER_PROVIDER } from "~/providers/speech/piper-voices.server";
import type { SpeechResult } from "~/providers/types";
import { prisma } from "~/core/db.server";
import { DEFAULT_CAPTION_STYLE } from "../../app/lib/timeline/captions";
import { buildTimeline } from "../../app/lib/timeline/timeline";
import { VIDEO_FPS } from "../../app/lib/timeline/timing";
import { estimateWordTimings } from "../../app/lib/timeline/word-timings";
import { scriptWorkflow } from "../../workflows/script";
import { loudness } from "../support/loudness";
import { startTestWorker } from "../support/temporal";

/** The neural voice's processes a process started (its children running piper-voice-process.mjs). */
function voiceProcessesOf(parent: number): string[] {
  return fs
    .readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
        return Number(stat[1]) === parent && !stat[0]!.startsWith("Z") && fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("piper-voice-process.mjs");
      } catch {
        return false;
      }
    });
}

/** A stand-in for the worker: a Node process that runs `code` (ES module, the app's imports) and prints what it says. */
function standInWorker(code: string, env: Record<string, string> = {}) {
  const worker = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", code], {
    cwd: fileURLToPath(new URL("../..", import.meta.url)),
    stdio: ["pipe", "pipe", "inherit"],
    env: { ...process.env, ...env },
  });
  let said = "";
  worker.stdout!.setEncoding("utf8").on("data", (d: string) => (said += d));
  /** Waits for a line starting with `word`, and gives the rest of it. */
  const waitFor = (word: string) =>
    new Promise<string>((resolve, reject) => {
      const look = () => {
        const line = said.split("\n").find((l) => l.startsWith(`${word} `) || l === word);
        if (line !== undefined) return resolve(line.slice(word.length).trim());
        if (worker.exitCode !== null) return reject(new Error(`the stand-in worker ended first (exit code ${worker.exitCode})`));
        setTimeout(look, 50);
      };
      look();
    });
  return { worker, waitFor };
}

const VOICE = "piper:en_US-joe-medium";
const offline = providersFor({});
let testWorker: Awaited<ReturnType<typeof startTestWorker>>;

beforeAll(async () => {
  testWorker = await startTestWorker();
});
afterAll(async () => {
  await testWorker?.stop();
  await prisma.$disconnect();
});

describe("the offline neural voice", () => {
  it("is installed by npm test and is English's offline default, with its licence", async () => {
    expect(installedPiperVoices().map((v) => v.id), `npm run voices:install puts ${VOICE} in ${machineVoicesDir()}`).toContain(VOICE);
    const voices = await offline.speech.listVoices();
    const joe = voices.find((v) => v.id === VOICE)!;
    expect(joe).toMatchObject({ neural: true, language: "en" });
    expect(joe.licence).toMatch(/CC0/);
    expect(joe.licence).toMatch(/lessac/);
    const result = await offline.speech.synthesize({ text: "Octopuses taste with their arms.", language: "en" });
    expect(result).toMatchObject({ provider: PIPER_PROVIDER, voiceId: VOICE });
  });

  it("speaks a 30 s Short whose voiceovers last the narration fit's estimate, captions on the model's durations", async () => {
    const title = "The Secret Life of Octopuses";
    const topic = "How octopuses change colour, solve puzzles and escape from tanks";
    const durationSeconds = 30;
    const user = await prisma.user.create({ data: { email: `neural-${Math.random().toString(36).slice(2)}@example.com` } });
    const project = await prisma.project.create({ data: { userId: user.id, title, topic, resolution: resolutionEnum("9:16"), durationSeconds } });
    await testWorker.client.workflow.execute(scriptWorkflow, {
      taskQueue: testWorker.taskQueue,
      workflowId: `script-${project.id}`,
      args: [{ projectId: project.id, userId: user.id, title, topic, durationSeconds }],
    });
    const script = (await prisma.script.findUniqueOrThrow({ where: { projectId: project.id } })).text!;
    const sceneCount = sceneCountFor("9:16", durationSeconds);
    const scenes = await offline.text.splitIntoScenes({ title, script, resolution: "9:16", durationSeconds, sceneCount, seed: project.id });

    // the narration fit's estimate: the speech the plan leaves once the pauses between the scenes are taken off,
    // at the neural voice's measured pace
    const rate = await speakingRateOf(offline.speech, VOICE);
    const plan = planNarration({ durationSeconds, sceneCount: scenes.length, wordsPerSecond: rate.wordsPerSecond });

    const spoken: SpeechResult[] = [];
    for (const scene of scenes) spoken.push(trimVoiceover(await offline.speech.synthesize({ text: scene.voiceoverText, language: "en" })));
    expect(spoken.every((r) => r.provider === PIPER_PROVIDER && r.voiceId === VOICE)).toBe(true);
    const speech = spoken.reduce((sum, r) => sum + r.durationSeconds, 0);
    console.log(`neural 30 s Short: ${scenes.length} scenes, ${speech.toFixed(2)} s of speech, fit estimate ${plan.speechSeconds.toFixed(2)} s`);
    expect(Math.abs(speech / plan.speechSeconds - 1)).toBeLessThanOrEqual(0.05);

    const style = { ...DEFAULT_CAPTION_STYLE, preset: "highlight" as const };
    const timeline = buildTimeline({
      width: 1080,
      height: 1920,
      fps: VIDEO_FPS,
      scenes: scenes.map((s, i) => ({
        imageSrc: "scene.png",
        audioSrc: "voice.wav",
        audioDurationInSeconds: spoken[i]!.durationSeconds,
        text: s.voiceoverText,
        words: { source: "provider" as const, audioSeconds: spoken[i]!.durationSeconds, words: spoken[i]!.words! },
      })),
      music: null,
      captions: true,
      captionStyle: style,
    });
    expect(Math.abs(timeline.durationInFrames / VIDEO_FPS / durationSeconds - 1)).toBeLessThanOrEqual(0.05);

    let differsFromEstimate = 0;
    for (const [i, scene] of timeline.scenes.entries()) {
      const words = spoken[i]!.words!;
      expect(words.map((w) => w.text)).toEqual(scenes[i]!.voiceoverText.split(/\s+/).filter(Boolean));
      // each highlight state starts on the frame of its word's start as the model timed it (the first at the scene's start)
      const cues = timeline.overlays.filter((o) => o.kind === "caption" && o.sceneIndex === i);
      const starts = cues.map((c) => c.fromFrame - scene.fromFrame);
      const modelFrames = [...new Set(words.map((w, k) => (k === 0 ? 0 : Math.round(w.start * VIDEO_FPS))))];
      expect(starts).toEqual(modelFrames.filter((f, k) => k === 0 || f > modelFrames[k - 1]!));
      const estimate = estimateWordTimings(scenes[i]!.voiceoverText, spoken[i]!.durationSeconds);
      differsFromEstimate += words.filter((w, k) => Math.abs(w.start - estimate[k]!.start) > 1 / VIDEO_FPS).length;
      // the model's durations are the voice's: after a sentence's end, the next word starts where the voice comes back
      for (let k = 1; k < words.length; k++) {
        if (!/[.!?]$/.test(words[k - 1]!.text)) continue;
        const wav = spoken[i]!.audio;
        const start = words[k]!.start;
        expect(loudness(wav, start - 0.1, start - 1 / VIDEO_FPS), words[k]!.text).toBeLessThan(0.4 * loudness(wav, start, start + 0.12));
      }
    }
    // the syllable estimate would have put many words on other frames
    expect(differsFromEstimate).toBeGreaterThan(5);
  }, 400_000);

  it("keeps the event loop free while it speaks, so an activity's heartbeat timer keeps ticking", async () => {
    await offline.speech.synthesize({ text: "Ready.", voiceId: VOICE });
    // one long sentence (about 25 s of speech): its inference takes seconds of CPU, on the voice's own thread
    const sentence = `${Array.from({ length: 4 }, () => "the tide climbs the beach, lingers for a while and slips back out to sea").join(", and ")}.`;
    let longestGap = 0;
    let last = performance.now();
    const timer = setInterval(() => {
      const now = performance.now();
      longestGap = Math.max(longestGap, now - last);
      last = now;
    }, 20);
    const started = performance.now();
    const result = await offline.speech.synthesize({ text: `Every day ${sentence}`, voiceId: VOICE });
    const elapsed = performance.now() - started;
    clearInterval(timer);
    expect(result.durationSeconds).toBeGreaterThan(15);
    // The sentence is one inference: on the event loop's thread it would stop the timer for about all of it. With
    // the voice in its own process the timer waits only for the scheduler: tens of milliseconds on a quiet machine, and once
    // 762 ms with both lanes of npm test busy (a fixed 500 ms bound failed there). Bounded by a third of the call.
    console.info(`synthesis ${elapsed.toFixed(0)} ms, longest timer gap ${longestGap.toFixed(0)} ms`);
    expect(longestGap).toBeLessThan(Math.max(500, elapsed / 3));
  });

  it("speaks from a process of its own, which ends with the worker even when the worker is killed", { timeout: 60_000 }, async () => {
    // a stand-in for the worker: a Node process that speaks a sentence with the voice and waits
    const { worker, waitFor } = standInWorker(`import { synthesizeWithPiper } from "./app/providers/speech/piper.server.ts";
const r = await synthesizeWithPiper({ text: "The voice lives next door.", voiceId: ${JSON.stringify(VOICE)} });
console.log("spoke " + r.durationSeconds.toFixed(2)); setInterval(() => {}, 1000);`);
    expect(Number(await waitFor("spoke"))).toBeGreaterThan(0.5);
    const voiceProcesses = () => voiceProcessesOf(worker.pid!);
    // the model is the voice process's memory, not the worker's
    const [voice] = voiceProcesses();
    expect(voice).toBeDefined();
    const rssMiB = (pid: number | string) => Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"))![1]) / 1024;
    console.info(`worker ${rssMiB(worker.pid!).toFixed(0)} MiB, its voice process ${rssMiB(voice!).toFixed(0)} MiB`);
    expect(rssMiB(voice!)).toBeGreaterThan(60);
    worker.kill("SIGKILL");
    await expect.poll(() => fs.existsSync(`/proc/${voice}`) && !fs.readFileSync(`/proc/${voice}/stat`, "utf8").includes(") Z "), { timeout: 10_000 }).toBe(false);
  });

  it("a voice's process ends after a while without speaking, giving back its memory; the next voiceover starts it again", { timeout: 60_000 }, async () => {
    // the stand-in worker speaks, waits past the idle time (2 s here, VOICE_IDLE_CLOSE_SECONDS) and speaks again
    const { worker, waitFor } = standInWorker(
      `import { synthesizeWithPiper } from "./app/providers/speech/piper.server.ts";
const say = (text) => synthesizeWithPiper({ text, voiceId: ${JSON.stringify(VOICE)} });
console.log("first " + (await say("The hive wakes at dawn.")).durationSeconds.toFixed(2));
await new Promise((resolve) => process.stdin.once("data", resolve).resume());
console.log("second " + (await say("The foragers fly out again.")).durationSeconds.toFixed(2)); setInterval(() => {}, 1000);`,
      { VOICE_IDLE_CLOSE_SECONDS: "2" },
    );
    try {
      expect(Number(await waitFor("first"))).toBeGreaterThan(0.5);
      expect(voiceProcessesOf(worker.pid!)).toHaveLength(1);
      // two seconds after its last sentence the process is gone (a zombie is not counted: it holds no memory)
      await expect.poll(() => voiceProcessesOf(worker.pid!).length, { timeout: 10_000 }).toBe(0);
      worker.stdin!.write("go\n");
      expect(Number(await waitFor("second"))).toBeGreaterThan(0.5);
      expect(voiceProcessesOf(worker.pid!)).toHaveLength(1);
    } finally {
      worker.kill("SIGKILL");
    }
  });

  it("a render starting closes a voice silent for two seconds, not one that speaks again within them", { timeout: 60_000 }, async () => {
    // the idle wait is ten minutes here: only the render's hint (closeIdleVoicesSoon, decision 296) can close it
    const { worker, waitFor } = standInWorker(
      `import { synthesizeWithPiper } from "./app/providers/speech/piper.server.ts";
import { closeIdleVoicesSoon } from "./app/providers/speech/piper-session.server.ts";
const say = (text) => synthesizeWithPiper({ text, voiceId: ${JSON.stringify(VOICE)} });
const next = () => new Promise((resolve) => process.stdin.once("data", resolve).resume());
console.log("first " + (await say("The hive wakes at dawn.")).durationSeconds.toFixed(2));
closeIdleVoicesSoon();
console.log("second " + (await say("The foragers fly out again.")).durationSeconds.toFixed(2));
await next();
closeIdleVoicesSoon();
console.log("hinted"); setInterval(() => {}, 1000);`,
      { VOICE_IDLE_CLOSE_SECONDS: "600" },
    );
    try {
      expect(Number(await waitFor("first"))).toBeGreaterThan(0.5);
      const [voice] = voiceProcessesOf(worker.pid!);
      expect(voice).toBeDefined();
      // the second sentence came within the two seconds: the same process spoke it and stays after it
      expect(Number(await waitFor("second"))).toBeGreaterThan(0.5);
      await new Promise((r) => setTimeout(r, 3000));
      expect(voiceProcessesOf(worker.pid!)).toEqual([voice]);
      // a render starting now, the voice silent for three seconds: gone at once, not in ten minutes
      worker.stdin!.write("go\n");
      await waitFor("hinted");
      await expect.poll(() => voiceProcessesOf(worker.pid!).length, { timeout: 3000 }).toBe(0);
    } finally {
      worker.kill("SIGKILL");
    }
  });

  it("a chosen neural voice whose file is missing: a clear message, and the labelled eSpeak NG voice speaks", async () => {
    const dir = ownerVoicesDir();
    fs.mkdirSync(dir, { recursive: true });
    const name = "en_US-gone-medium";
    const installed = installedPiperVoices().find((v) => v.id === VOICE)!;
    fs.copyFileSync(`${installed.modelFile}.json`, path.join(dir, `${name}.onnx.json`));
    fs.symlinkSync(installed.modelFile, path.join(dir, `${name}.onnx`));
    expect((await offline.speech.listVoices()).map((v) => v.id)).toContain(`piper:${name}`);

    fs.rmSync(path.join(dir, `${name}.onnx`));
    expect((await offline.speech.listVoices()).map((v) => v.id)).not.toContain(`piper:${name}`);
    const result = await offline.speech.synthesize({ text: "The octopus slipped out of its tank.", voiceId: `piper:${name}`, language: "en" });
    expect(result.voiceId).toBe("espeak:en");
    expect(result.provider).toBe(`eSpeak NG (the neural voice ${name} is not installed)`);
    expect(result.notice).toContain(`The neural voice ${name} is not installed: ${name}.onnx with its ${name}.onnx.json was not found in ${dir}`);
    expect(result.durationSeconds).toBeGreaterThan(1);
  });
});
