// The Render page's server reads and writes, each with its fallback.
import { apiGet, apiRequest } from "~/lib/api-client";
import { IDLE_RENDER_PROGRESS, type RenderProgress } from "~/lib/render-progress";

export const RENDER_PROGRESS_KEY = ["render-progress"];
export const LATEST_VIDEO_KEY = ["latest-video"];

export type LatestVideo = { videoUrl: string | null; width?: number | null; height?: number | null; durationSeconds?: number | null };

/** On any failure the page falls back to idle with 0 progress and '0s' elapsed . */
export async function fetchRenderProgress(): Promise<RenderProgress> {
  try {
    return (await apiGet<RenderProgress>("/api/render-progress")) ?? IDLE_RENDER_PROGRESS;
  } catch {
    return IDLE_RENDER_PROGRESS;
  }
}

export async function fetchLatestVideo(): Promise<LatestVideo> {
  return (await apiGet<LatestVideo>("/api/latest-video")) ?? { videoUrl: null };
}

export const startRenderRequest = (quality?: number) =>
  apiRequest<{ started: boolean }>("POST", "/api/render-video", quality ? { quality } : undefined);
export const deleteVideosRequest = () => apiRequest<{ success: boolean }>("DELETE", "/api/delete-videos");

export const isRenderActive = (p: RenderProgress | undefined) => Boolean(p?.isRendering || p?.isActive);
