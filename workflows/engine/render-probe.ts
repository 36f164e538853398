// The real length of a voiceover or a rendered video: a PCM WAV's from its header, anything else from ffprobe.
import { execFile } from "node:child_process";
import fs from "node:fs/promises";
import { promisify } from "node:util";
import { getEnv } from "~/core/env.server";
import { readWavInfo } from "~/providers/wav";

const run = promisify(execFile);

/** Seconds of media in the file, from its container. */
export async function probeDurationSeconds(file: string): Promise<number> {
  const { stdout } = await run(getEnv().FFPROBE_PATH, ["-v", "error", "-show_entries", "format=duration", "-of", "default=nw=1:nk=1", file]);
  const seconds = Number.parseFloat(stdout.trim());
  if (!Number.isFinite(seconds) || seconds <= 0) throw new Error(`ffprobe found no duration in ${file}`);
  return seconds;
}

// WAVE_FORMAT_PCM, WAVE_FORMAT_IEEE_FLOAT, WAVE_FORMAT_EXTENSIBLE: a fixed number of bytes a second
const CONSTANT_RATE_WAV = new Set([1, 3, 0xfffe]);

/**
 * A voiceover's seconds. The voices write PCM WAV, whose length is its data's size over its byte rate: read from the
 * header, as ffprobe reads it (to the microsecond, so the frames a scene gets do not change), without starting a
 * process per scene (decision 287). Anything else, or a WAV whose header does not add up, is measured by ffprobe.
 */
export async function voiceoverDurationSeconds(file: string): Promise<number> {
  const seconds = await wavHeaderSeconds(file).catch(() => null);
  return seconds ?? probeDurationSeconds(file);
}

/** A PCM WAV's seconds from its header, or null when the file is not one (then ffprobe measures it). */
export async function wavHeaderSeconds(file: string): Promise<number | null> {
  const bytes = await fs.readFile(file);
  if (bytes.toString("ascii", 0, 4) !== "RIFF" || bytes.toString("ascii", 8, 12) !== "WAVE") return null;
  const info = readWavInfo(bytes);
  if (!CONSTANT_RATE_WAV.has(info.formatTag) || info.sampleRate <= 0 || info.channels <= 0 || info.bitsPerSample <= 0) return null;
  // whole sample frames only, as ffprobe counts them
  const frameBytes = info.channels * Math.ceil(info.bitsPerSample / 8);
  const frames = Math.floor(info.dataLength / frameBytes);
  if (frames <= 0) return null;
  return Math.round((frames / info.sampleRate) * 1e6) / 1e6;
}
