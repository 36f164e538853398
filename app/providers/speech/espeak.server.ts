// Offline speech in many languages: eSpeak NG (Debian's espeak-ng), one short-lived process per synthesis like
// Flite (decision 004). Voice ids carry the language: "espeak:fr", "espeak:fr+f3" (female variant). The speed is
// eSpeak's own rate (-s, words per minute). Output: 16-bit mono WAV at 22,050 Hz.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { spawn } from "node:child_process";
import { languageOf } from "~/lib/languages";
import { getEnv } from "~/core/env.server";
import { espeakVoiceId, espeakVoices, parseEspeakVoice } from "~/lib/voices";
import { espeakWordsPerMinute, speedPlan } from "~/lib/voice-speed";
import { ProviderError } from "../errors";
import type { SpeechProvider, SpeechRequest, SpeechResult } from "../types";
import { readWavInfo } from "../wav";
import { wordTimingsByPauses } from "./pause-anchored-timings";
import { speakable } from "./speakable";

export const ESPEAK_PROVIDER = "eSpeak NG";
export const ESPEAK_MISSING =
  "eSpeak NG is not installed, and offline voices other than English need it: install the Debian package espeak-ng (npm start installs it when run as root).";

/** The eSpeak NG arguments for one synthesis (exported for the tests). */
export function espeakArguments(voiceId: string, speed: number, textFile: string, wavFile: string): string[] {
  const parsed = parseEspeakVoice(voiceId);
  if (!parsed) throw new ProviderError(ESPEAK_PROVIDER, "rejected", `${voiceId} is not an eSpeak NG voice.`);
  const { native } = speedPlan("espeak", speed);
  return ["-v", `${parsed.language.espeak}${parsed.variant}`, "-s", String(espeakWordsPerMinute(native)), "-w", wavFile, "-f", textFile];
}

function run(args: string[]): Promise<{ code: number | null; signal: string | null; stderr: string; missing: boolean }> {
  return new Promise((resolve) => {
    const child = spawn(getEnv().ESPEAK_NG_PATH, args, { stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (d) => (stderr += d));
    child.once("error", (e: NodeJS.ErrnoException) => resolve({ code: null, signal: null, stderr: e.message, missing: e.code === "ENOENT" }));
    child.once("exit", (code, signal) => resolve({ code, signal, stderr: stderr.trim(), missing: false }));
  });
}

export async function synthesizeWithEspeak(request: SpeechRequest): Promise<SpeechResult> {
  const spoken = speakable(request.text);
  if (!spoken) throw new ProviderError(ESPEAK_PROVIDER, "rejected", "There is no text to speak: the voiceover is empty.");
  const voiceId = request.voiceId && parseEspeakVoice(request.voiceId) ? request.voiceId : espeakVoiceId(languageOf(request.language).code);
  const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), "reelsmith-espeak-"));
  try {
    const textFile = path.join(dir, "in.txt");
    const wavFile = path.join(dir, "out.wav");
    await fs.promises.writeFile(textFile, spoken, "utf8");
    const result = await run(espeakArguments(voiceId, request.speed ?? 1, textFile, wavFile));
    if (result.missing) throw new ProviderError(ESPEAK_PROVIDER, "rejected", ESPEAK_MISSING);
    if (result.code !== 0) {
      throw new ProviderError(
        ESPEAK_PROVIDER,
        "unavailable",
        `The offline voice stopped (${result.signal ?? `exit code ${result.code}`})${result.stderr ? `: ${result.stderr.slice(0, 200)}` : ""}.`,
      );
    }
    const audio = await fs.promises.readFile(wavFile);
    // eSpeak prints no timings: the words are timed clause by clause between the pauses heard in its audio
    const words = wordTimingsByPauses(request.text, audio) ?? undefined;
    return { audio, mimeType: "audio/wav", durationSeconds: readWavInfo(audio).durationSeconds, words, voiceId, provider: ESPEAK_PROVIDER };
  } finally {
    await fs.promises.rm(dir, { recursive: true, force: true });
  }
}

/** Whether espeak-ng runs here: the start-up check and /healthz use it. */
export async function espeakAvailable(): Promise<boolean> {
  const r = await run(["--version"]);
  return r.code === 0;
}

export function createEspeakSpeechProvider(): SpeechProvider {
  return {
    name: "Offline voice (eSpeak NG)",
    source: "offline",
    async listVoices(category) {
      return category && category !== "premade" ? [] : espeakVoices();
    },
    synthesize: synthesizeWithEspeak,
  };
}
