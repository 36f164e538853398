// How much of a video moves (issue 50): seconds of scenes shown as clips (the creator's or stock), as AI clips, and
// as still pictures (a slow zoom over a still is still a still). Each scene counts for its voiceover's length.
export type MotionScene = { seconds: number; kind: "clip" | "ai-clip" | "still" };
export type MotionShare = { totalSeconds: number; clipSeconds: number; aiClipSeconds: number; stillSeconds: number; movingPercent: number };

export function motionShare(scenes: readonly MotionScene[]): MotionShare {
  const sum = (kind: MotionScene["kind"]) => scenes.filter((s) => s.kind === kind).reduce((n, s) => n + Math.max(0, s.seconds), 0);
  const clipSeconds = sum("clip"), aiClipSeconds = sum("ai-clip"), stillSeconds = sum("still");
  const totalSeconds = clipSeconds + aiClipSeconds + stillSeconds;
  const round = (n: number) => Math.round(n * 10) / 10;
  return {
    totalSeconds: round(totalSeconds),
    clipSeconds: round(clipSeconds),
    aiClipSeconds: round(aiClipSeconds),
    stillSeconds: round(stillSeconds),
    movingPercent: totalSeconds > 0 ? Math.round((100 * (clipSeconds + aiClipSeconds)) / totalSeconds) : 0,
  };
}

/** What a scene shows: an AI clip (a generated clip with no stock credit, made by a clip service), a clip, or a still. */
export function sceneMotionKind(cell: { clipUrl: string | null; imageSource: string; mediaCredit: unknown }, madeByClipService: boolean): MotionScene["kind"] {
  if (!cell.clipUrl) return "still";
  return cell.imageSource === "generated" && !cell.mediaCredit && madeByClipService ? "ai-clip" : "clip";
}

/** The video's facts from its scenes, as GET /api/video-facts answers them. */
export type VideoFacts = { motion: MotionShare; sceneCheck: { passed: number; checked: number; scenes: number } } | null;
