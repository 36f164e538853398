// ffprobe, for the real length of a voiceover or a rendered video.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { getEnv } from "~/core/env.server";

const run = promisify(execFile);

/** Seconds of media in the file, from its container. */
export async function probeDurationSeconds(file: string): Promise<number> {
  const { stdout } = await run(getEnv().FFPROBE_PATH, ["-v", "error", "-show_entries", "format=duration", "-of", "default=nw=1:nk=1", file]);
  const seconds = Number.parseFloat(stdout.trim());
  if (!Number.isFinite(seconds) || seconds <= 0) throw new Error(`ffprobe found no duration in ${file}`);
  return seconds;
}
