// The phoneme clock against the real offline voices (issue 53, decision 258): for each voice, the clock is calibrated
// as the worker calibrates it (the speaking-rate sample spoken whole and sentence by sentence), then fresh drafts of
// the offline writer are timed both ways, each scene spoken by the real voice as the voiceover activity speaks it
// and by the clock: the clock's error per draft, and the CPU seconds each way (this process, its voice's processes and the
// programs it ran). A benchmark, not a test: the CPU figures depend on the machine's load.
//   node scripts/run-ts.mjs scripts/bench-phoneme-clock.ts [--drafts 6] [--voices piper:en_US-joe-medium,rms,espeak:en]
//                                                          [--fixture tests/fixtures/phoneme-clock-calibration.json]
// --fixture writes the first voice's calibration and its drafts' scenes with their real seconds (the unit test
// app/providers/speech/phoneme-clock.server.test.ts checks the clock against them).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { treeCpuSeconds } from "./lib/process-tree";

process.env.DATA_DIR ??= fs.mkdtempSync(path.join(os.tmpdir(), "reelsmith-bench-clock-"));
process.env.SESSION_SECRET ??= "s".repeat(40);
process.env.ENCRYPTION_KEY ??= "a".repeat(64);

const { values } = parseArgs({
  options: {
    drafts: { type: "string", default: "6" },
    voices: { type: "string", default: "piper:en_US-joe-medium,rms,espeak:en" },
    fixture: { type: "string" },
    // speak each draft a second time: how far two readings of the neural voice differ (the floor of any clock)
    twice: { type: "boolean", default: false },
    // readings of the neural voice's own durations a draft is timed by (default: piper-clock.server.ts's DURATION_READINGS)
    readings: { type: "string" },
    title: { type: "string", default: "Why the Sea Is Salty" },
    seconds: { type: "string", default: "60" },
  },
});

const { providersFor } = await import("~/providers/index.server");
const { measureSpeakingRate, sampleLanguageOf, speechSecondsOf } = await import("~/providers/speech/speaking-rate.server");
const { clockSeconds, phonemesOf, phonemizerVoiceFor } = await import("~/providers/speech/phoneme-clock.server");
const { piperClockedNarrationOf } = await import("~/providers/speech/piper-clock.server");
const { isPiperVoice } = await import("~/lib/voices");
const { splitVoiceover } = await import("~/providers/text/scenes");
const { splitSentences } = await import("~/providers/text/language");
const { planNarration } = await import("~/lib/narration");
const { sceneCountFor } = await import("~/lib/storyboard");
const { countWords, EXPANSION_THRESHOLD, MAX_EXPANSION_ATTEMPTS, planChunks } = await import("~/lib/script");

const TOPIC = "Where the salt in the oceans comes from: rivers, rocks, volcanoes and vents on the sea floor";
const seconds = Number(values.seconds);
const sceneCount = sceneCountFor("16:9", seconds);
const { text, speech } = providersFor({});

/** CPU seconds of this process, of the programs it ran, and of the neural voice's processes while they run. */
const cpuSeconds = () => treeCpuSeconds();

async function draft(targetWords: number, seed: string): Promise<string> {
  const targets = planChunks(targetWords);
  const chunks: string[] = [];
  for (let i = 0; i < targets.length; i++) {
    const request = { title: values.title!, topic: TOPIC, chunkIndex: i, totalChunks: targets.length, targetWords: targets[i]!, seed };
    let chunk = await text.writeScriptChunk(request);
    for (let attempt = 1; attempt <= MAX_EXPANSION_ATTEMPTS && countWords(chunk) < targets[i]! * EXPANSION_THRESHOLD; attempt++) {
      chunk = await text.expandScriptChunk({ title: values.title!, topic: TOPIC, text: chunk, targetWords: targets[i]!, attempt, seed });
    }
    chunks.push(chunk);
  }
  return chunks.map((c) => c.trim()).join("\n\n");
}

type FixtureDraft = { seed: string; scenes: { text: string; seconds: number }[] };
let fixture: { voice: string; phonemizer: string; secondsPerPhoneme: number; sentencePauseSeconds: number; drafts: FixtureDraft[] } | undefined;

for (const voice of values.voices!.split(",")) {
  let cpu = cpuSeconds();
  // the phoneme clock calibrated for every voice, the neural one too (the worker no longer calibrates it for that one)
  const rate = await measureSpeakingRate(speech, voice, sampleLanguageOf(voice), { phonemeClock: true });
  const calibrationCpu = cpuSeconds() - cpu;
  if (!rate.clock) throw new Error(`${voice}: no clock was calibrated (is espeak-ng installed?)`);
  const phonemizer = phonemizerVoiceFor(voice);
  console.log(
    `\n${voice} (phonemes of eSpeak ${phonemizer}): ${rate.wordsPerSecond.toFixed(2)} words/s, ${(rate.clock.secondsPerPhoneme * 1000).toFixed(1)} ms a phoneme, ` +
      `${rate.clock.sentencePauseSeconds.toFixed(3)} s between sentences (calibrated in ${calibrationCpu.toFixed(1)} CPU s)`,
  );
  const plan = planNarration({ durationSeconds: seconds, sceneCount, wordsPerSecond: rate.wordsPerSecond });
  const drafts: FixtureDraft[] = [];
  const errors: number[] = [];
  const piperErrors: number[] = [];
  const againErrors: number[] = [];
  let piperCpu = 0;
  let voiceCpu = 0;
  let clockCpu = 0;
  for (let d = 0; d < Number(values.drafts); d++) {
    const seed = `clock-${d}`;
    const script = await draft(plan.targetWords, seed);
    const scenes = splitVoiceover(script, sceneCount);
    cpu = cpuSeconds();
    const spoken: number[] = [];
    for (const scene of scenes) spoken.push(await speechSecondsOf(speech, scene, voice));
    const real = spoken.reduce((a, b) => a + b, 0);
    const afterVoice = cpuSeconds();
    voiceCpu += afterVoice - cpu;
    const t0 = performance.now();
    const phonemes = await phonemesOf(script, phonemizer);
    const sentences = scenes.reduce((n, s) => n + splitSentences(s).length, 0);
    const clocked = clockSeconds(rate.clock, { phonemes, sentences, scenes: scenes.length });
    const clockMs = performance.now() - t0;
    clockCpu += cpuSeconds() - afterVoice;
    const error = clocked / real - 1;
    errors.push(error);
    let piperNote = "";
    if (isPiperVoice(voice)) {
      const before = cpuSeconds();
      const t1 = performance.now();
      const own = await piperClockedNarrationOf(voice, script, sceneCount, values.readings ? Number(values.readings) : undefined);
      piperCpu += cpuSeconds() - before;
      const ownError = own!.speechSeconds / real - 1;
      piperErrors.push(ownError);
      piperNote = `; its own durations ${own!.speechSeconds.toFixed(2)} s (${(performance.now() - t1).toFixed(0)} ms wall): ${(ownError * 100).toFixed(1)} %`;
    }
    if (values.twice) {
      let again = 0;
      for (const scene of scenes) again += await speechSecondsOf(speech, scene, voice);
      againErrors.push(again / real - 1);
      piperNote += `; read again ${again.toFixed(2)} s: ${((again / real - 1) * 100).toFixed(1)} %`;
    }
    drafts.push({ seed, scenes: scenes.map((s, i) => ({ text: s, seconds: Math.round(spoken[i]! * 1000) / 1000 })) });
    console.log(
      `  draft ${d}: ${countWords(script)} words, ${scenes.length} scenes, ${phonemes} phonemes; voice ${real.toFixed(2)} s (${(afterVoice - cpu).toFixed(2)} CPU s), ` +
        `clock ${clocked.toFixed(2)} s (${clockMs.toFixed(0)} ms wall): ${(error * 100).toFixed(1)} %${piperNote}`,
    );
  }
  const mean = errors.reduce((a, b) => a + b, 0) / errors.length;
  const worst = Math.max(...errors.map(Math.abs));
  console.log(
    `  ${voice}: clock error mean ${(mean * 100).toFixed(1)} %, worst ${(worst * 100).toFixed(1)} %; a draft timed by the voice ${(voiceCpu / errors.length).toFixed(2)} CPU s, ` +
      `by the clock ${(clockCpu / errors.length).toFixed(3)} CPU s`,
  );
  const summary = (label: string, list: number[], cpu?: number) => {
    if (!list.length) return;
    const m = list.reduce((a, b) => a + b, 0) / list.length;
    const sd = Math.sqrt(list.reduce((a, b) => a + (b - m) ** 2, 0) / list.length);
    console.log(`  ${voice} ${label}: mean ${(m * 100).toFixed(1)} %, sd ${(sd * 100).toFixed(1)} %, worst ${(Math.max(...list.map(Math.abs)) * 100).toFixed(1)} %${cpu === undefined ? "" : `, ${(cpu / list.length).toFixed(3)} CPU s a draft`}`);
  };
  summary("phoneme clock", errors, clockCpu);
  summary("its own durations", piperErrors, piperCpu);
  summary("a second reading against the first", againErrors);
  fixture ??= { voice, phonemizer, secondsPerPhoneme: rate.clock.secondsPerPhoneme, sentencePauseSeconds: rate.clock.sentencePauseSeconds, drafts };
}

if (values.fixture && fixture) {
  fs.writeFileSync(values.fixture, `${JSON.stringify({ measured: new Date().toISOString().slice(0, 10), ...fixture }, null, 2)}\n`);
  console.log(`\nwrote ${values.fixture}`);
}
process.exit(0);
