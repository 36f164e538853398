import { describe, expect, it } from "vitest";
import { cleanupToast } from "./cleanup-messages";

const result = (vd: number, vo: number, id: number, io: number) => ({
  voiceoverFiles: { deleted: vd, orphaned: vo },
  imageFiles: { deleted: id, orphaned: io },
});

describe("cleanupToast", () => {
  it("says nothing was needed when no file was orphaned", () => {
    expect(cleanupToast(result(0, 0, 0, 0))).toEqual({ title: "No Cleanup Needed", description: "No orphaned media files were found." });
  });
  it("counts the deleted voiceovers and images against all orphaned files", () => {
    expect(cleanupToast(result(2, 2, 1, 3))).toEqual({
      title: "Cleanup Completed",
      description: "Deleted 3 orphaned files (2 voiceover, 1 images) out of 5 total orphaned files.",
    });
  });
  it("warns, destructively, when orphaned files were found but none could be deleted", () => {
    expect(cleanupToast(result(0, 1, 0, 2))).toMatchObject({
      title: "Cleanup Issues",
      description: "Found 3 orphaned files but could not delete them. Check the error logs.",
      variant: "destructive",
    });
  });
});
