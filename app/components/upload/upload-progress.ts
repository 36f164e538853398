// The upload page's progress bar, from the server's upload status (decision 199): the share of the video's bytes
// YouTube has acknowledged, or no number at all until the server has one. Never a made-up figure.
import type { UploadStatus } from "./upload-queries";

const formatBytes = (n: number) => (n >= 1024 * 1024 ? `${(n / 1024 / 1024).toFixed(1)} MB` : `${Math.round(n / 1024)} KB`);

/**
 * What the progress bar shows (decision 199): the share of the video's bytes YouTube has acknowledged, as the server
 * reports it (saved or live), or no number at all until the server knows the video's size (the upload is starting).
 */
export function uploadProgressView(status: Pick<UploadStatus, "status" | "phase" | "percent" | "bytesUploaded" | "totalBytes"> | null | undefined): { percent: number | null; detail: string } {
  if (!status || status.status !== "uploading" || !status.totalBytes) return { percent: null, detail: "Starting the upload..." };
  const percent = Math.max(0, Math.min(100, Math.round(status.percent)));
  if (status.phase === "thumbnail") return { percent, detail: "Setting the thumbnail..." };
  return { percent, detail: `Uploaded ${formatBytes(status.bytesUploaded)} of ${formatBytes(status.totalBytes)}` };
}

