// Time-stretching a voiceover without changing its pitch: ffmpeg's atempo filter (WSOLA), used for the part of a
// project's voice speed that a provider's own rate setting cannot give (ElevenLabs above 1.2x).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { spawn } from "node:child_process";
import { getEnv } from "~/core/env.server";
import { ProviderError } from "../errors";

/** atempo takes 0.5 to 100 per instance; our factors stay within 0.5-2, so one instance is enough. */
export function atempoFilter(tempo: number): string {
  if (!(tempo >= 0.5 && tempo <= 2)) throw new Error(`A time-stretch of ${tempo} is outside 0.5-2.`);
  return `atempo=${tempo.toFixed(4)}`;
}

/** The WAV played `tempo` times faster (1.25: 20 % shorter) at the same pitch, as 16-bit PCM WAV. */
export async function timeStretchWav(wav: Buffer, tempo: number, provider = "Voice speed"): Promise<Buffer> {
  if (tempo === 1) return wav;
  const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), "reelsmith-tempo-"));
  try {
    const input = path.join(dir, "in.wav");
    const output = path.join(dir, "out.wav");
    await fs.promises.writeFile(input, wav);
    const stderr = await new Promise<string>((resolve, reject) => {
      const child = spawn(getEnv().FFMPEG_PATH, ["-v", "error", "-y", "-i", input, "-filter:a", atempoFilter(tempo), "-c:a", "pcm_s16le", "-map_metadata", "-1", "-fflags", "+bitexact", output], {
        stdio: ["ignore", "ignore", "pipe"],
      });
      let err = "";
      child.stderr.on("data", (d) => (err += d));
      child.once("error", reject);
      child.once("exit", (code) => (code === 0 ? resolve("") : resolve(err.trim() || `ffmpeg exit code ${code}`)));
    }).catch((e: Error) => `ffmpeg could not start (${e.message})`);
    if (stderr) throw new ProviderError(provider, "unavailable", `Changing the voice speed failed: ${stderr.slice(0, 200)}`);
    return await fs.promises.readFile(output);
  } finally {
    await fs.promises.rm(dir, { recursive: true, force: true });
  }
}
