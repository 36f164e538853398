// The four outcomes of a media cleanup, worded as the spec's toasts.
import type { ToastMessage } from "~/hooks/use-toast";
import type { CleanupResult } from "./types";

export function cleanupToast(result: CleanupResult): Omit<ToastMessage, "id" | "open"> {
  const voiceovers = result.voiceoverFiles;
  const images = result.imageFiles;
  const orphaned = voiceovers.orphaned + images.orphaned;
  const deleted = voiceovers.deleted + images.deleted;
  if (orphaned === 0) return { title: "No Cleanup Needed", description: "No orphaned media files were found." };
  if (deleted === 0) {
    return {
      title: "Cleanup Issues",
      description: `Found ${orphaned} orphaned files but could not delete them. Check the error logs.`,
      variant: "destructive",
    };
  }
  return {
    title: "Cleanup Completed",
    description: `Deleted ${deleted} orphaned files (${voiceovers.deleted} voiceover, ${images.deleted} images) out of ${orphaned} total orphaned files.`,
  };
}
