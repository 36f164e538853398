// Storyboard rules shared by the browser and the server (spec sections 3, 4 and 9).
import { WORDS_PER_MINUTE } from "./constants";
import type { ResolutionValue } from "./video-format";
import { countWords } from "./script";

export type CellMedia = { imageUrl?: string | null; audioUrl?: string | null };

/** Seconds a scene should last on screen, by format: Shorts cut faster than long landscape videos. */
const TARGET_SCENE_SECONDS: Record<ResolutionValue, number> = { "16:9": 15, "9:16": 5, "9:16-tiktok": 6 };
const MAX_SCENES = 240;

/** How many scenes a video of this format and length is split into. */
export function sceneCountFor(resolution: ResolutionValue, durationSeconds: number): number {
  return Math.min(MAX_SCENES, Math.max(1, Math.round(durationSeconds / TARGET_SCENE_SECONDS[resolution])));
}

/** Seconds the voiceover takes at 150 words per minute. */
export function estimatedDurationFor(voiceoverText: string): number {
  return Math.round((countWords(voiceoverText) / WORDS_PER_MINUTE) * 60 * 10) / 10;
}

/** A cell lacks an image when it has none, or only a stand-in (a URL mentioning 'video' or 'placeholder'). */
export function needsImage(cell: CellMedia): boolean {
  const url = cell.imageUrl ?? "";
  return !url || url.includes("video") || url.includes("placeholder");
}

export function needsAudio(cell: CellMedia): boolean {
  return !cell.audioUrl;
}

/**
 * Every scene has an image and a voiceover, and there is at least one scene: the one rule for "ready", read by
 * the render gate, the header's links, the dashboard and the storyboard's Continue button.
 */
export function allScenesHaveMedia(cells: CellMedia[]): boolean {
  return cells.length > 0 && cells.every((c) => !needsImage(c) && !needsAudio(c));
}
