// The Upload page's server reads and writes (spec section 7).
import { apiGet, apiRequest } from "~/lib/api-client";
import type { Chapter } from "~/lib/chapters";
import type { PreflightThumbnail, PreflightVideo } from "~/lib/preflight";
import type { YoutubeCategory } from "~/lib/youtube";
import type { UploadStatusResponse } from "~/server/youtube-upload.server";

type PreflightFacts = {
  video: PreflightVideo | null;
  thumbnail: PreflightThumbnail;
  sceneChapters: Chapter[];
  captions: { srt: string; vtt: string } | null;
  captionsAllowed: boolean;
};

export const AUTH_STATUS_KEY = ["youtube-auth-status"];
export const CATEGORIES_KEY = ["youtube-categories"];
export const UPLOAD_STATUS_KEY = ["youtube-upload-status"];
export const PREFLIGHT_KEY = ["youtube-preflight"];
export type { PreflightFacts };

export type AuthStatus = { isAuthenticated: boolean; needsReconnect: boolean; channelTitle: string | null; hasOAuthClient: boolean };
export type CategoriesResponse = { categories: YoutubeCategory[]; preferredCategoryId: string; source: "youtube" | "builtin" };
/** GET /api/youtube/upload-status, as the server builds it. */
export type UploadStatus = UploadStatusResponse;
export type UploadRequest = {
  videoPath: string;
  title: string;
  description: string;
  tags: string[];
  privacyStatus: "public" | "unlisted" | "private";
  categoryId: string;
  publishAt?: string;
  thumbnailUrl?: string;
  madeForKids: boolean;
  /** status.containsSyntheticMedia (issue 49) */
  containsSyntheticMedia: boolean;
};
export type UploadResponse = { videoId: string; url: string; thumbnailSet: boolean; publishAt: string | null };

export const fetchAuthStatus = async (): Promise<AuthStatus> =>
  (await apiGet<AuthStatus>("/api/youtube/auth-status")) ?? { isAuthenticated: false, needsReconnect: false, channelTitle: null, hasOAuthClient: false };
export const fetchCategories = async () => apiGet<CategoriesResponse>("/api/youtube/categories");
export const fetchUploadStatus = async () => apiGet<UploadStatus>("/api/youtube/upload-status");
export const fetchPreflightFacts = async () => apiGet<PreflightFacts>("/api/youtube/preflight");
export const fetchAuthUrl = () => apiRequest<{ authUrl: string }>("GET", "/api/youtube/oauth/authorize");
export const disconnectRequest = () => apiRequest("POST", "/api/youtube/disconnect", {});
export const savePreferredCategory = (categoryId: string) => apiRequest("PUT", "/api/youtube/preferred-category", { categoryId });
export const uploadRequest = (body: UploadRequest) => apiRequest<UploadResponse>("POST", "/api/youtube/upload", body);
