// The owner's own neural voices (issue 48, decision 210): a Piper voice (.onnx + .onnx.json) uploaded in Settings is
// kept in media storage under "voices/<name>.onnx", "voices/<name>.onnx.json" and "voices/<name>.licence.txt", so that
// every worker finds it, on this host or another. With the local backend the voices are read where they are stored;
// with a bucket each process keeps a copy in DATA_DIR/voices-from-storage, brought up to date (a download on first
// use, again when the stored file changes) at most every STORED_VOICES_RECHECK_MS before it lists or speaks.
import fs from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { voiceSampleKey } from "~/lib/voice-samples";
import { PIPER_PREFIX } from "~/lib/voices";
import { VOICE_LICENCE_MAX_CHARS, VOICE_UPLOAD_MAX_BYTES, voiceUploadTooLargeMessage } from "~/lib/voice-upload";
import { PiperConfigSchema, registerStoredVoices } from "~/providers/speech/piper-voices.server";
import type { StreamedFilePart } from "~/lib/request-body.server";
import { getEnv } from "./env.server";
import { mediaBackend, mediaRoot } from "./storage.server";

export const STORED_VOICES_PREFIX = "voices/";
/** How long a process trusts its copy of the stored voices before it lists the storage again. */
export const STORED_VOICES_RECHECK_MS = 30_000;

export class VoiceUploadRejection extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly field: string,
  ) {
    super(message);
  }
}

/** The folder this process reads the stored voices from. */
export function storedVoicesDir(): string {
  return mediaBackend().kind === "local" ? path.join(mediaRoot(), "voices") : path.join(getEnv().DATA_DIR, "voices-from-storage");
}

let checked: { at: number; done: Promise<void> } | null = null;

/** Brings this process's copy of the stored voices up to date (a no-op with the local backend). */
export function syncStoredVoices({ force = false } = {}): Promise<void> {
  const backend = mediaBackend();
  if (backend.kind === "local") return Promise.resolve();
  if (!force && checked && Date.now() - checked.at < STORED_VOICES_RECHECK_MS) return checked.done;
  const done = (async () => {
    const dir = storedVoicesDir();
    await fs.promises.mkdir(dir, { recursive: true });
    const wanted = new Set<string>();
    for await (const object of backend.list(STORED_VOICES_PREFIX)) {
      const file = object.key.slice(STORED_VOICES_PREFIX.length);
      if (file.includes("/")) continue;
      wanted.add(file);
      const target = path.join(dir, file);
      const stamp = `${target}.version`;
      const have = await fs.promises.readFile(stamp, "utf8").catch(() => null);
      if (have === object.version && fs.existsSync(target)) continue;
      // the model before its config: a voice is listed only once both are here, and then whole (download renames)
      await backend.download(object.key, target);
      await fs.promises.writeFile(stamp, object.version);
    }
    // a voice removed from the storage goes from this machine too
    for (const file of await fs.promises.readdir(dir)) {
      const base = file.endsWith(".version") ? file.slice(0, -".version".length) : file;
      if (!wanted.has(base) && !file.endsWith(".partial")) await fs.promises.rm(path.join(dir, file), { force: true });
    }
  })().catch((e: unknown) => {
    // the storage out of reach: the copies already here still speak; the next call tries again
    checked = null;
    console.warn(`The uploaded voices could not be brought from ${backend.describe}: ${(e as Error).message}`);
  });
  checked = { at: Date.now(), done };
  return done;
}

registerStoredVoices({ dir: storedVoicesDir, sync: () => syncStoredVoices() });

/** A voice file name as the upload gives it: "en_US-joe-medium.onnx" -> "en_US-joe-medium". */
export function voiceNameOf(fileName: string | null): string {
  const name = path.basename(fileName ?? "").replace(/\.onnx$/i, "");
  if (!fileName?.toLowerCase().endsWith(".onnx") || !/^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$/.test(name)) {
    throw new VoiceUploadRejection(400, 'The voice model must be a Piper voice file named like "en_US-joe-medium.onnx" (letters, digits, - _ .).', "model");
  }
  return name;
}

/** The voice's .onnx.json, checked: JSON with what a Piper voice needs (its sample rate, eSpeak voice and phoneme map). */
export function checkVoiceConfig(text: string | undefined): string {
  if (!text?.trim()) throw new VoiceUploadRejection(400, "Choose the voice's .onnx.json file (its config) beside the .onnx model.", "config");
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new VoiceUploadRejection(400, `The voice's .onnx.json is not JSON: ${(e as Error).message}`, "config");
  }
  const parsed = PiperConfigSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new VoiceUploadRejection(400, `The voice's .onnx.json is not a Piper voice config: ${issue.path.join(".") || "the file"}: ${issue.message}.`, "config");
  }
  if (Object.keys(parsed.data.phoneme_id_map).length === 0) throw new VoiceUploadRejection(400, "The voice's .onnx.json has an empty phoneme_id_map.", "config");
  return text;
}

export function checkVoiceLicence(text: string | undefined): string {
  const licence = text?.trim() ?? "";
  if (!licence) throw new VoiceUploadRejection(400, "Say under which licence the voice may be used (its voice card says).", "licence");
  if (licence.length > VOICE_LICENCE_MAX_CHARS) throw new VoiceUploadRejection(400, `The licence must be at most ${VOICE_LICENCE_MAX_CHARS} characters.`, "licence");
  return licence;
}

const asBuffer = (chunk: Uint8Array) => Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);

/**
 * Receives the model part of a voice upload (its licence and config arrived before it, as the form sends them):
 * both checked first, then the model streamed into storage as it arrives (counted against VOICE_UPLOAD_MAX_BYTES),
 * then its config and licence beside it. An earlier voice of the same name is replaced, its sample forgotten.
 */
export type UploadedVoice = { id: string; name: string; bytes: number };

export async function receiveVoiceUpload(file: StreamedFilePart, fields: Map<string, string>): Promise<UploadedVoice> {
  const licence = checkVoiceLicence(fields.get("licence"));
  const config = checkVoiceConfig(fields.get("config"));
  const name = voiceNameOf(file.fileName);
  const backend = mediaBackend();
  const key = (suffix: string) => `${STORED_VOICES_PREFIX}${name}${suffix}`;
  // the voice is unlisted while its model is replaced (no config beside it)
  await backend.delete(key(".onnx.json"));
  let overLimit = false;
  async function* counted(): AsyncGenerator<Buffer> {
    let total = 0;
    for await (const chunk of file.data) {
      total += chunk.byteLength;
      if (total > VOICE_UPLOAD_MAX_BYTES) {
        overLimit = true;
        throw new VoiceUploadRejection(413, voiceUploadTooLargeMessage(), "model");
      }
      yield asBuffer(chunk);
    }
  }
  let stored;
  try {
    stored = await backend.put(key(".onnx"), Readable.from(counted(), { objectMode: false }), { contentType: "application/octet-stream" });
  } catch (e) {
    await backend.delete(key(".onnx")).catch(() => {});
    if (overLimit) throw new VoiceUploadRejection(413, voiceUploadTooLargeMessage(), "model");
    throw e;
  }
  if (stored.bytes < 1024) {
    await backend.delete(key(".onnx"));
    throw new VoiceUploadRejection(400, `The voice model is ${stored.bytes} bytes: not a Piper voice model.`, "model");
  }
  await backend.put(key(".licence.txt"), Buffer.from(`${licence}\n`), { contentType: "text/plain" });
  await backend.put(key(".onnx.json"), Buffer.from(config), { contentType: "application/json" });
  await backend.delete(voiceSampleKey(`${PIPER_PREFIX}${name}`)).catch(() => {});
  // this process lists it at once; other processes within STORED_VOICES_RECHECK_MS
  await syncStoredVoices({ force: true });
  return { id: `${PIPER_PREFIX}${name}`, name, bytes: stored.bytes };
}
