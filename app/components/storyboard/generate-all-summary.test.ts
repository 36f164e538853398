import { describe, expect, it } from "vitest";
import { generateAllRunningLine, nextGenerateAllWatch, type GenerateAllRun } from "./generate-all-summary";

const run = (runId: string, running: boolean, failed = 0): GenerateAllRun => ({
  runId,
  running,
  phase: running ? "images" : "done",
  imagesTotal: 1,
  imagesDone: 1 - failed,
  imagesFailed: failed,
  voiceoversTotal: 1,
  voiceoversDone: 1,
  voiceoversFailed: 0,
  failures: [],
});

describe("nextGenerateAllWatch", () => {
  it("sums up a run the page started even when its first poll finds it already done (a one-scene storyboard)", () => {
    expect(nextGenerateAllWatch("run-2", run("run-2", false))).toEqual({
      watched: null,
      summary: { title: "All content generated", description: "1 images and 1 voiceovers generated.", variant: "default" },
    });
  });

  it("watches a run it sees running, and sums it up once, with its failures", () => {
    const seen = nextGenerateAllWatch(null, run("run-3", true));
    expect(seen).toEqual({ watched: "run-3" });
    const ended = nextGenerateAllWatch(seen.watched, run("run-3", false, 1));
    expect(ended.summary).toEqual({ title: "Generation finished with errors", description: "0 images and 1 voiceovers generated, 1 failed.", variant: "destructive" });
    expect(nextGenerateAllWatch(ended.watched, run("run-3", false, 1)).summary).toBeUndefined();
  });

  it("never shows an earlier run's summary for a new run, nor one for a run the page did not watch", () => {
    expect(nextGenerateAllWatch("run-5", run("run-4", false))).toEqual({ watched: "run-5" });
    expect(nextGenerateAllWatch(null, run("run-4", false))).toEqual({ watched: null });
    expect(nextGenerateAllWatch("run-5", null)).toEqual({ watched: "run-5" });
  });
});

describe("generateAllRunningLine", () => {
  const going = (phase: GenerateAllRun["phase"], images: number, voiceovers: number, failed = 0) =>
    generateAllRunningLine({ ...run("run-4", true), phase, imagesTotal: 4, imagesDone: images, imagesFailed: failed, voiceoversTotal: 4, voiceoversDone: voiceovers });

  it("reads the pictures, and the voiceovers made beside them once the first is made", () => {
    expect(going("finding", 0, 0)).toBe("Finding scenes without media...");
    expect(going("images", 1, 0)).toBe("Generating images: 1 of 4");
    expect(going("images", 2, 1, 1)).toBe("Generating images: 3 of 4; voiceovers: 1 of 4");
  });

  it("reads the voiceovers left once the pictures are made", () => {
    expect(going("voiceovers", 4, 2)).toBe("Generating voiceovers: 2 of 4");
  });
});
