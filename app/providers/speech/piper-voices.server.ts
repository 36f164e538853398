// The neural voices on this machine: Piper voice files (`<name>.onnx` with its `<name>.onnx.json`) in the voices
// folders, DATA_DIR/voices (the operator's own), the voices the owner uploaded in Settings (kept in media storage,
// brought here by app/core/stored-voices.server.ts) and the per-machine cache ~/.cache/reelsmith/voices (where
// `npm run voices:install` puts the voice the tests use; scripts/lib/voices.mjs). A voice's licence is read from
// `<name>.licence.txt` beside it; a voice without one says so. Voice ids: "piper:<name>".
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { z } from "zod";
import { isSupportedLanguage, languageOf } from "~/lib/languages";
import { PIPER_PREFIX } from "~/lib/voices";
import { getEnv } from "~/core/env.server";
import type { Voice } from "../types";

/** The provider name recorded on each voiceover (app/lib/provenance.ts names it in a sentence). */
export const PIPER_PROVIDER = "Offline neural voice (Piper)";

/** What a voice's .onnx.json says that we use (Piper's own config; other fields are ignored). */
export const PiperConfigSchema = z.object({
  audio: z.object({ sample_rate: z.number().int().positive() }),
  espeak: z.object({ voice: z.string().min(1) }),
  inference: z.object({ noise_scale: z.number(), length_scale: z.number().positive(), noise_w: z.number() }).partial().optional(),
  phoneme_type: z.string().optional(),
  phoneme_id_map: z.record(z.string(), z.array(z.number().int())),
  num_speakers: z.number().int().optional(),
  dataset: z.string().optional(),
  language: z.object({ code: z.string(), family: z.string().optional(), country_english: z.string().optional() }).partial().optional(),
});
export type PiperConfig = z.infer<typeof PiperConfigSchema>;

export type PiperVoice = {
  id: string;
  /** the file name without .onnx */
  name: string;
  modelFile: string;
  config: PiperConfig;
  /** the language code the app uses ("en"), from the voice's own language */
  language: string;
  licence: string;
};

export const LICENCE_NOT_STATED = "Licence not stated: no licence file beside the voice (check where it came from before publishing).";

/** The per-machine voices folder (outside the clone, like the Temporal CLI). */
export function machineVoicesDir(): string {
  return path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), ".cache"), "reelsmith", "voices");
}

/** The operator's voices folder (`npm run voices:install -- <voice.onnx>` adds to it; uploads from Settings go to media storage: stored-voices.server.ts). */
export function ownerVoicesDir(): string {
  return path.join(getEnv().DATA_DIR, "voices");
}

/**
 * The voices the owner uploaded in Settings, kept in media storage (app/core/stored-voices.server.ts plugs this in,
 * so this module needs no storage): the local folder they are read from, and how that folder is brought up to date
 * with the storage (a download on a worker of another host; nothing with the local backend).
 */
export type StoredVoices = { dir: () => string; sync: () => Promise<void> };
let storedVoices: StoredVoices | null = null;
export function registerStoredVoices(source: StoredVoices): void {
  storedVoices = source;
}

/** Brings the uploaded voices onto this machine (the provider calls it before it lists or speaks). */
export async function refreshStoredVoices(): Promise<void> {
  await storedVoices?.sync();
}

/** Where voices are looked for, in order: the owner's folder first (its voice wins a name both hold), the uploaded ones, the machine's. */
export function voicesDirs(): string[] {
  return [ownerVoicesDir(), ...(storedVoices ? [storedVoices.dir()] : []), machineVoicesDir()];
}

export const piperVoiceId = (name: string) => `${PIPER_PREFIX}${name}`;

/** Piper names voices "en_US-joe-medium": the speaker, capitalised, and its quality. */
function displayName(name: string, config: PiperConfig): string {
  const parts = name.split("-");
  const speaker = config.dataset ?? parts[1] ?? name;
  const quality = parts[2] ? `, ${parts[2]}` : "";
  return `${speaker.charAt(0).toUpperCase()}${speaker.slice(1).replace(/_/g, " ")}${quality} (neural, offline)`;
}

function languageOfConfig(name: string, config: PiperConfig): string {
  const family = config.language?.family ?? config.language?.code?.split(/[_-]/)[0] ?? name.split(/[_-]/)[0] ?? "";
  return isSupportedLanguage(family) ? languageOf(family).code : family.toLowerCase();
}

function readVoice(dir: string, name: string): PiperVoice | null {
  const modelFile = path.join(dir, `${name}.onnx`);
  try {
    if (!fs.statSync(modelFile).isFile()) return null;
    const config = PiperConfigSchema.parse(JSON.parse(fs.readFileSync(`${modelFile}.json`, "utf8")));
    let licence = LICENCE_NOT_STATED;
    try {
      licence = fs.readFileSync(path.join(dir, `${name}.licence.txt`), "utf8").trim() || LICENCE_NOT_STATED;
    } catch {
      // no licence file: said so beside the voice
    }
    return { id: piperVoiceId(name), name, modelFile, config, language: languageOfConfig(name, config), licence };
  } catch {
    // a voice without its .onnx.json, or one we cannot read, is not offered
    return null;
  }
}

/** Every voice installed, the owner's first; a name in both folders is the owner's. */
export function installedPiperVoices(): PiperVoice[] {
  const byName = new Map<string, PiperVoice>();
  for (const dir of voicesDirs()) {
    let files: string[];
    try {
      files = fs.readdirSync(dir);
    } catch {
      continue;
    }
    for (const file of files.filter((f) => f.endsWith(".onnx")).sort()) {
      const name = file.slice(0, -".onnx".length);
      if (byName.has(name)) continue;
      const voice = readVoice(dir, name);
      if (voice) byName.set(name, voice);
    }
  }
  return [...byName.values()];
}

/** The installed voice with this id, or null. */
export function findPiperVoice(id: string): PiperVoice | null {
  if (!id.startsWith(PIPER_PREFIX)) return null;
  const name = id.slice(PIPER_PREFIX.length);
  for (const dir of voicesDirs()) {
    const voice = readVoice(dir, name);
    if (voice) return voice;
  }
  return null;
}

/** What a creator reads when a chosen neural voice's files are gone. */
export function missingVoiceMessage(id: string): string {
  const name = id.slice(PIPER_PREFIX.length);
  return (
    `The neural voice ${name} is not installed: ${name}.onnx with its ${name}.onnx.json was not found in ${voicesDirs().join(" or ")}. ` +
    "Add the voice's files there again (npm run voices:install installs en_US-joe-medium), or choose another voice."
  );
}

/** The voice as the pickers list it. */
export function piperVoiceListing(voice: PiperVoice): Voice {
  return {
    id: voice.id,
    name: displayName(voice.name, voice.config),
    category: "premade",
    accent: voice.config.language?.country_english,
    language: voice.language,
    neural: true,
    licence: voice.licence,
  };
}
