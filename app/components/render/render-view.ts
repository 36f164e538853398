// What the Render page shows, decided from what it knows for sure: the storyboard (from the page load), the
// last successful progress read, whether the latest reads failed, and whether a start is on its way.
// Nothing here trusts a read that failed: while the server cannot be reached no action is offered and no
// "Ready"/"complete" state is claimed; a new render never shows the previous run's 100 %; the old video
// leaves the screen while a new one is being made.
import { DEFAULT_RENDER_STAGE, IDLE_RENDER_PROGRESS, type RenderProgress } from "~/lib/render-progress";
import { isRenderActive } from "./render-queries";

export type RenderViewInput = {
  /** Every scene has its image and voiceover. */
  ready: boolean;
  sceneCount: number;
  /** The last successful progress read (undefined before the first). */
  progress: RenderProgress | undefined;
  /** The latest reads failed because the server could not answer. */
  unreachable: boolean;
  /** Render Video was clicked and the start has not been confirmed by a progress read yet. */
  starting: boolean;
  videoUrl: string | null;
};

export type RenderView = {
  heading: string;
  subtitle: string;
  /** The Render Video button (shown when ready) and whether it can be clicked. */
  buttonLabel: string;
  canStart: boolean;
  /** The progress panel's contents, when it shows. */
  panel: RenderProgress | null;
  /** The panel shows what was last known before the connection was lost. */
  panelIsLastKnown: boolean;
  showVideo: boolean;
  lastError: string | null;
};

/** The progress a render that was just started shows until its first real read: not the previous run's. */
export const STARTING_RENDER_PROGRESS: RenderProgress = {
  ...IDLE_RENDER_PROGRESS,
  isActive: true,
  stage: DEFAULT_RENDER_STAGE,
  step: "Step 1 of 3: Collecting scenes",
  details: "Starting the render",
};

export function renderView(input: RenderViewInput): RenderView {
  const { ready, sceneCount, progress, unreachable, starting, videoUrl } = input;
  const active = isRenderActive(progress);
  const renderedScenes = videoUrl ? sceneCount : 0;

  if (unreachable) {
    return {
      heading: "Cannot reach the server",
      subtitle: "Render • status unknown until the server answers",
      buttonLabel: "Render Video",
      canStart: false,
      panel: active ? progress! : null,
      panelIsLastKnown: active,
      // a render was under way: the video on screen is the old one
      showVideo: Boolean(videoUrl) && !active,
      lastError: null,
    };
  }
  if (active) {
    return {
      heading: "Rendering...",
      subtitle: `Render • ${progress!.details || progress!.stage || DEFAULT_RENDER_STAGE} (${Math.round(progress!.progress)}%)`,
      buttonLabel: "Rendering in progress...",
      canStart: false,
      panel: progress!,
      panelIsLastKnown: false,
      showVideo: false,
      lastError: null,
    };
  }
  if (starting) {
    return {
      heading: "Starting the render...",
      subtitle: "Render • starting (0%)",
      buttonLabel: "Rendering in progress...",
      canStart: false,
      panel: STARTING_RENDER_PROGRESS,
      panelIsLastKnown: false,
      showVideo: false,
      lastError: null,
    };
  }
  return {
    heading: ready ? "Ready to Render" : "Complete Your Storyboard",
    subtitle: `Render • ${renderedScenes} of ${sceneCount} scenes rendered`,
    buttonLabel: "Render Video",
    // before the first progress read nobody knows whether a render is already under way
    canStart: ready && progress !== undefined,
    panel: null,
    panelIsLastKnown: false,
    showVideo: Boolean(videoUrl),
    lastError: progress?.error ?? null,
  };
}

export type RenderStepState = "done" | "current" | "todo";
export const RENDER_STEP_LABELS = ["Prepare the scenes", "Render the frames", "Save the video"] as const;

/** The three steps of a render and where this one is, read from its "Step N of 3: ..." line. */
export function renderSteps(progress: RenderProgress): { label: string; state: RenderStepState }[] {
  const match = /^Step (\d) of 3/.exec(progress.step);
  const finished = progress.progress >= 100 || progress.step === "Done";
  const current = finished ? 4 : match ? Number(match[1]) : 1;
  return RENDER_STEP_LABELS.map((label, i) => ({
    label,
    state: i + 1 < current ? "done" : i + 1 === current ? "current" : "todo",
  }));
}
