// The publish stage's thumbnail and upload-metadata contract: what the web side and the workflows share
// (workflow ids, inputs, results, error types). Only types and pure functions: the workflow bundle imports it.

/** Identical requests (same project, same choices) join one run; different ones run side by side. */
export const thumbnailWorkflowId = (projectId: string, requestKey: string) => `thumbnail-${projectId}-${requestKey}`;
export const uploadMetadataWorkflowId = (userId: string, requestKey: string) => `upload-metadata-${userId}-${requestKey}`;

export type ThumbnailWorkflowInput = {
  userId: string;
  projectId: string;
  imageUrl: string;
  cellIndex: number | null;
  title: string;
  /** fontValue, one of THUMBNAIL_FONTS */
  font: string;
  fontSize: number;
};
export type ThumbnailWorkflowResult = { thumbnailId: string; thumbnailUrl: string; fontSize: number };

/** `language`: the current project's (BCP-47); absent: English. */
export type UploadMetadataWorkflowInput = { userId: string; title: string; script: string; language?: string };
export type UploadMetadataWorkflowResult = { description: string; tags: string[]; source: "cloud" | "offline" };

/** The picked image is gone or not the user's: retrying cannot help. */
export const THUMBNAIL_IMAGE_MISSING = "ThumbnailImageMissing";
export const THUMBNAIL_FAILED = "ThumbnailFailed";
export const UPLOAD_METADATA_FAILED = "UploadMetadataFailed";
