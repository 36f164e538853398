// Which Generate All run the storyboard page owes a summary for, the summary's toast (spec section 8), and the bar's
// line while a run goes.
import type { GenerateAllProgress } from "../../../workflows/shared/scene-media";

export type GenerateAllRun = GenerateAllProgress & { running: boolean; runId: string };
export type GenerateAllSummary = { title: string; description: string; variant: "default" | "destructive" };

/**
 * The next watched run and, when the watched run has just ended, its summary. A page watches the run it started
 * (by the id the start answered with) and any run it sees running. Matching by id means a run that ended before
 * the page's first poll still gets its summary, and an earlier run's result is never taken for a new run's.
 */
export function nextGenerateAllWatch(watched: string | null, progress: GenerateAllRun | null): { watched: string | null; summary?: GenerateAllSummary } {
  if (!progress) return { watched };
  if (progress.running) return { watched: progress.runId };
  if (watched !== progress.runId) return { watched };
  const failed = progress.imagesFailed + progress.voiceoversFailed;
  return {
    watched: null,
    summary: {
      title: failed ? "Generation finished with errors" : "All content generated",
      description: `${progress.imagesDone} images and ${progress.voiceoversDone} voiceovers generated${failed ? `, ${failed} failed` : ""}.`,
      variant: failed ? "destructive" : "default",
    },
  };
}

/**
 * The Generate All bar's line while a run goes: the pictures while they are made, with the voiceovers made beside them
 * once the first is done (decision 294), then the voiceovers left.
 */
export function generateAllRunningLine(p: GenerateAllProgress): string {
  const images = p.imagesDone + p.imagesFailed;
  const voiceovers = p.voiceoversDone + p.voiceoversFailed;
  if (p.phase === "images") return `Generating images: ${images} of ${p.imagesTotal}` + (voiceovers > 0 ? `; voiceovers: ${voiceovers} of ${p.voiceoversTotal}` : "");
  if (p.phase === "voiceovers") return `Generating voiceovers: ${voiceovers} of ${p.voiceoversTotal}`;
  return "Finding scenes without media...";
}
