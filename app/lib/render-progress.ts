// The render progress shape, shared by the /api/render-progress route and the Render page.

export type RenderProgress = {
  /** Frames are being rendered or the video is being encoded and saved. */
  isRendering: boolean;
  /** A render is under way in any phase, including preparing and waiting for a worker. */
  isActive: boolean;
  totalScenes: number;
  completedScenes: number;
  currentScene: number;
  stage: string;
  /** 0 to 100 */
  progress: number;
  /** Seconds since the render started, or '0s' when idle. */
  elapsedTime: number | string;
  step: string;
  details: string;
  /** Why the last render failed, when it did. */
  error?: string | null;
  /** Which attempt of the render step is running: above 1 after a worker died and the render resumed. */
  attempt?: number;
};

export const DEFAULT_RENDER_STAGE = "Preparing render...";

/** What the page shows when nothing renders, and when reading the progress fails. */
export const IDLE_RENDER_PROGRESS: RenderProgress = {
  isRendering: false,
  isActive: false,
  totalScenes: 0,
  completedScenes: 0,
  currentScene: 0,
  stage: "",
  progress: 0,
  elapsedTime: "0s",
  step: "",
  details: "",
};

/** "42s", "3m 07s", "1h 02m 05s" */
export function formatElapsed(elapsed: number | string): string {
  if (typeof elapsed === "string") return elapsed;
  const total = Math.max(0, Math.floor(elapsed));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const pad = (n: number) => String(n).padStart(2, "0");
  if (h) return `${h}h ${pad(m)}m ${pad(s)}s`;
  if (m) return `${m}m ${pad(s)}s`;
  return `${s}s`;
}
