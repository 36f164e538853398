// Background music, as the browser and the server both see it: the track shape of the spec's API, the
// request schemas with the spec's limits, and the Music screen's texts and formatting rules. Pure.
import { z } from "zod";
import { MUSIC } from "./constants";

export type MusicTrackStatus = "pending" | "processing" | "completed" | "error";

/** The spec's music track, plus the error a failed track shows. */
export type MusicTrack = {
  id: string;
  title: string | null;
  prompt: string;
  status: MusicTrackStatus;
  audioUrl: string | null;
  duration: number | null;
  error: string | null;
  createdAt: string;
};

export const MAX_MUSIC_PROMPT_CHARS = 1000;

export const GenerateMusicSchema = z
  .object({
    prompt: z
      .string({ message: "Please enter a music prompt to generate tracks." })
      .trim()
      .min(1, "Please enter a music prompt to generate tracks.")
      .max(MAX_MUSIC_PROMPT_CHARS, `The prompt can be at most ${MAX_MUSIC_PROMPT_CHARS} characters.`),
    trackCount: z
      .number({ message: `trackCount must be a whole number from ${MUSIC.minTracks} to ${MUSIC.maxTracks}` })
      .int(`trackCount must be a whole number from ${MUSIC.minTracks} to ${MUSIC.maxTracks}`)
      .min(MUSIC.minTracks, `trackCount must be at least ${MUSIC.minTracks}`)
      .max(MUSIC.maxTracks, `trackCount can be at most ${MUSIC.maxTracks}`),
  })
  .strict();

const volume = (name: string) =>
  z
    .number({ message: `${name} must be a number from ${MUSIC.minVolume} to ${MUSIC.maxVolume}` })
    .int(`${name} must be a whole number`)
    .min(MUSIC.minVolume, `${name} must be at least ${MUSIC.minVolume}`)
    .max(MUSIC.maxVolume, `${name} can be at most ${MUSIC.maxVolume}`);

export const MusicVolumeSchema = z.object({ volume: volume("volume") }).strict();

export const BackgroundMusicSchema = z
  .object({
    volumeLevel: volume("volumeLevel"),
    /** Which completed track to mix; the newest completed one when absent. */
    trackId: z.string().min(1).max(64).optional(),
  })
  .strict();

export const generateButtonLabel = (count: number) => `Generate ${count} Track${count === 1 ? "" : "s"}`;

/** m:ss, e.g. 0:07, 2:05; unknown or broken lengths read 0:00. */
export function formatTrackTime(seconds: number | null | undefined): string {
  const total = Number.isFinite(seconds) && (seconds as number) > 0 ? Math.floor(seconds as number) : 0;
  return `${Math.floor(total / 60)}:${String(total % 60).padStart(2, "0")}`;
}

export const trackTitle = (track: Pick<MusicTrack, "title">) => track.title?.trim() || "Untitled Track";

export type TrackCounts = { completed: number; processing: number; pending: number; error: number };

export function trackCounts(tracks: readonly Pick<MusicTrack, "status">[]): TrackCounts {
  const counts: TrackCounts = { completed: 0, processing: 0, pending: 0, error: 0 };
  for (const t of tracks) counts[t.status]++;
  return counts;
}

/** The badge a track that is not playable shows. */
export const STATUS_BADGES: Record<Exclude<MusicTrackStatus, "completed">, string> = { processing: "Processing", pending: "Pending", error: "Error" };

/** The disabled button of a track that cannot play yet: a spinner while it is made, 'Error' when it failed. */
export function unplayableButton(status: string): "spinner" | "Error" | "Waiting" {
  if (status === "processing" || status === "pending") return "spinner";
  if (status === "error") return "Error";
  return "Waiting";
}

export const applyingMessage = (volume: number) => `Automatically applying background music at ${volume}% volume...`;
export const musicAddedMessage = (volume: number) => `Background music has been successfully added to your video at ${volume}% volume!`;
