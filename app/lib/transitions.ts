// Transitions between scenes (issue 50, decision 225): the kinds a creator chooses from, per video and per scene.
// Shared by the storyboard page, the API and the render plan. No I/O.
export const TRANSITION_CHOICES = ["none", "fade", "slide", "zoom"] as const;
export type TransitionChoice = (typeof TRANSITION_CHOICES)[number];
export const TRANSITION_NAMES: Record<TransitionChoice, string> = { none: "Cut", fade: "Crossfade", slide: "Slide", zoom: "Zoom through" };
export const DEFAULT_TRANSITION_SECONDS = 0.5;

export type VideoTransitions = { kind: TransitionChoice; seconds: number; perScene: Record<string, TransitionChoice> };
export const NO_TRANSITIONS: VideoTransitions = { kind: "none", seconds: DEFAULT_TRANSITION_SECONDS, perScene: {} };

/**
 * The transitions a new video starts with, by its format (decision 245): a 16:9 video (an explainer, watched through)
 * crossfades for half a second; a 9:16 one (Shorts, TikTok: quick, punchy) cuts. The creator changes it on the storyboard.
 */
export function defaultTransitionsFor(resolution: "landscape" | "shorts" | "tiktok"): VideoTransitions {
  return resolution === "landscape" ? { kind: "fade", seconds: DEFAULT_TRANSITION_SECONDS, perScene: {} } : NO_TRANSITIONS;
}

/** A per-scene choice of "video": the scene follows the video's transition (its own choice is removed). */
export const FOLLOW_VIDEO = "video" as const;

/** What the composition takes: the video's transition, and each scene's own where it has one. */
export function transitionProps(t: VideoTransitions, sceneCount: number) {
  const perScene = Array.from({ length: sceneCount }, (_, i) => t.perScene[String(i)]);
  if (t.kind === "none" && perScene.every((k) => k === undefined || k === "none")) return { transition: undefined, perScene: perScene.map(() => undefined) };
  return { transition: { kind: t.kind, seconds: t.seconds }, perScene };
}
