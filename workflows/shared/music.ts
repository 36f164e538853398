// The music stage's contract, shared by the web side (app/server/music.server.ts), the workflows
// (workflows/music.ts) and the activities (workflows/activities/music.ts): workflow ids, inputs, results,
// progress, the Suno callback signal and the error types a retry cannot fix.
import { defineQuery, defineSignal } from "@temporalio/workflow";

// ── Track generation: one workflow per Generate click ─────────────────────────────────────────────
/** One run per generation; the batch id is the first track's id, so the callback route finds the run. */
export const musicTracksWorkflowId = (projectId: string, batchId: string) => `music-tracks-${projectId}-${batchId}`;

export type MusicTracksInput = {
  userId: string;
  projectId: string;
  /** The MusicTrack rows (status pending) this run fills in, one per requested track. */
  trackIds: string[];
  prompt: string;
  trackCount: number;
  /** How long the tracks should be (the video's length, capped by the provider). */
  durationSeconds: number;
  /** Between two status polls when no callback arrives; tests shorten it. */
  pollIntervalMs?: number;
  /** Give up after this long without a finished task. */
  maxWaitMs?: number;
};

/** A failed generation ends the run as failed (the tracks show the reason); a finished one says how many. */
export type MusicTracksResult = { status: "completed"; completed: number; error: null };

/** Suno POSTed a callback for this run's task: poll now instead of waiting for the next interval. */
export const musicCallbackSignal = defineSignal("musicCallback");

export const DEFAULT_MUSIC_POLL_INTERVAL_MS = 5000;
export const DEFAULT_MUSIC_MAX_WAIT_MS = 20 * 60 * 1000;

// ── Mixing music into the latest video: one run per project at a time ─────────────────────────────
export const backgroundMusicWorkflowId = (projectId: string) => `background-music-${projectId}`;

export type BackgroundMusicInput = {
  userId: string;
  projectId: string;
  /** 0 to 100: the music's gain in percent (linear amplitude, as the render's music layer uses it). */
  volumeLevel: number;
  /** The completed track to mix; the newest completed track when absent. */
  trackId?: string;
};

export type BackgroundMusicResult = { videoUrl: string; volumeLevel: number; durationSeconds: number; mixSeconds: number };

export type BackgroundMusicProgress = {
  status: "preparing" | "mixing" | "saving" | "completed" | "failed";
  /** 0 to 100 */
  percent: number;
  stage: string;
  error: string | null;
};

export const backgroundMusicProgressQuery = defineQuery<BackgroundMusicProgress>("backgroundMusicProgress");
export const backgroundMusicProgressSignal = defineSignal<[Partial<BackgroundMusicProgress>]>("backgroundMusicProgressUpdate");

/** No video, no completed track, a missing file: retrying cannot help. */
export const MUSIC_INPUT_ERROR = "MusicInputError";
