// The upload bar shows only real figures: none before the server knows the video's size, then the acknowledged bytes.
import { describe, expect, it } from "vitest";
import { uploadProgressView } from "./upload-progress";

const MB = 1024 * 1024;

describe("uploadProgressView", () => {
  it("shows no number until the server reports the video's size", () => {
    expect(uploadProgressView(undefined)).toEqual({ percent: null, detail: "Starting the upload..." });
    // right after the click the status may still be the previous upload's, finished at 100 %: not this one's figure
    expect(uploadProgressView({ status: "completed", phase: "completed", percent: 100, bytesUploaded: 9 * MB, totalBytes: 9 * MB }).percent).toBeNull();
    expect(uploadProgressView({ status: "uploading", phase: "preparing", percent: 0, bytesUploaded: 0, totalBytes: 0 }).percent).toBeNull();
  });

  it("then the share of bytes YouTube acknowledged, as the server counts it (3 %, not a made-up 95 %)", () => {
    expect(uploadProgressView({ status: "uploading", phase: "uploading", percent: 3, bytesUploaded: 0.3 * MB, totalBytes: 10 * MB })).toEqual({
      percent: 3,
      detail: "Uploaded 307 KB of 10.0 MB",
    });
    expect(uploadProgressView({ status: "uploading", phase: "thumbnail", percent: 100, bytesUploaded: 10 * MB, totalBytes: 10 * MB })).toEqual({ percent: 100, detail: "Setting the thumbnail..." });
  });
});
