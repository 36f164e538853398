// The Render page's server reads and writes, each with its fallback.
import type { DeliveredVideoFacts } from "~/lib/caption-track";
import { apiGet, apiRequest } from "~/lib/api-client";
import { IDLE_RENDER_PROGRESS, type RenderProgress } from "~/lib/render-progress";

export const RENDER_PROGRESS_KEY = ["render-progress"];
export const LATEST_VIDEO_KEY = ["latest-video"];

export type LatestVideo = { videoUrl: string | null; width?: number | null; height?: number | null; durationSeconds?: number | null } & Partial<DeliveredVideoFacts>;

/**
 * A failed read is an error, not idle: the spec's "fall back to idle with 0 progress" made a dead server look
 * like a finished render (docs/decisions/080). The page says the server cannot be reached and keeps polling.
 */
export async function fetchRenderProgress(): Promise<RenderProgress> {
  return (await apiGet<RenderProgress>("/api/render-progress")) ?? IDLE_RENDER_PROGRESS;
}

export async function fetchLatestVideo(): Promise<LatestVideo> {
  return (await apiGet<LatestVideo>("/api/latest-video")) ?? { videoUrl: null };
}

export const startRenderRequest = (quality?: number) =>
  apiRequest<{ started: boolean }>("POST", "/api/render-video", quality ? { quality } : undefined);
export const deleteVideosRequest = () => apiRequest<{ success: boolean }>("DELETE", "/api/delete-videos");

export const isRenderActive = (p: RenderProgress | undefined) => Boolean(p?.isRendering || p?.isActive);
