// Offline music: tracks composed from the prompt and rendered with a General MIDI soundfont.
// The task id carries the whole request, so any process can poll it (the web server, or a worker after a
// restart); polling renders the tracks and returns them as WAV. Deterministic for a given prompt and seed.
import { z } from "zod";
import { ProviderError } from "../errors";
import type { MusicProvider, MusicTrackResult } from "../types";
import { composeArrangement } from "./composer";
import { renderArrangement } from "./soundfont.server";

const PROVIDER = "Offline music";
const TASK_PREFIX = "offline-music:";
/** Longest offline track; longer videos loop their music (Suno's tracks are a few minutes long too). */
export const OFFLINE_MUSIC_MAX_SECONDS = 600;

const TaskSchema = z.object({
  prompt: z.string(),
  trackCount: z.number().int().min(1).max(5),
  durationSeconds: z.number().positive(),
  seed: z.string(),
});
type Task = z.infer<typeof TaskSchema>;

export function encodeOfflineMusicTask(task: Task): string {
  return TASK_PREFIX + Buffer.from(JSON.stringify(task), "utf8").toString("base64url");
}

export function decodeOfflineMusicTask(taskId: string): Task {
  if (!taskId.startsWith(TASK_PREFIX)) throw new ProviderError(PROVIDER, "rejected", `Unknown offline music task "${taskId.slice(0, 40)}".`);
  try {
    return TaskSchema.parse(JSON.parse(Buffer.from(taskId.slice(TASK_PREFIX.length), "base64url").toString("utf8")));
  } catch {
    throw new ProviderError(PROVIDER, "rejected", "This offline music task id is damaged; start the generation again.");
  }
}

/** A title from the prompt's first words, e.g. "Calm Piano Morning (2)". */
export function trackTitle(prompt: string, index: number, count: number): string {
  const words = prompt
    .replace(/[^\p{L}\p{N}\s'-]/gu, " ")
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 4)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1).toLowerCase());
  const base = words.length ? words.join(" ") : "Offline Track";
  return count > 1 ? `${base} (${index + 1})` : base;
}

export async function renderOfflineTrack(prompt: string, seconds: number, seed: string, onProgress?: (fraction: number) => void) {
  const arrangement = composeArrangement({ prompt, seconds, seed });
  return { arrangement, audio: await renderArrangement(arrangement, onProgress) };
}

export function createOfflineMusicProvider(): MusicProvider {
  return {
    name: "Offline music (SoundFont)",
    source: "offline",
    async startGeneration({ prompt, trackCount, durationSeconds, seed }) {
      if (!prompt.trim()) throw new ProviderError(PROVIDER, "rejected", "Please enter a music prompt to generate tracks.");
      const count = Math.min(5, Math.max(1, Math.round(trackCount)));
      const seconds = Math.min(OFFLINE_MUSIC_MAX_SECONDS, Math.max(1, durationSeconds));
      return { taskId: encodeOfflineMusicTask({ prompt: prompt.trim(), trackCount: count, durationSeconds: seconds, seed: seed ?? prompt.trim() }) };
    },
    async poll(taskId, options) {
      const task = decodeOfflineMusicTask(taskId);
      const tracks: MusicTrackResult[] = [];
      for (let i = 0; i < task.trackCount; i++) {
        const { audio } = await renderOfflineTrack(task.prompt, task.durationSeconds, `${task.seed}:${i}`, (f) =>
          options?.onProgress?.((i + f) / task.trackCount),
        );
        tracks.push({ title: trackTitle(task.prompt, i, task.trackCount), audio, mimeType: "audio/wav", durationSeconds: task.durationSeconds });
      }
      return { status: "completed", tracks };
    },
  };
}
