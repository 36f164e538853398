// The make-video workflow stays replay-safe: recorded histories of whole runs on the real worker (the offline
// providers, a tiny render) replay against today's workflow code without a nondeterminism error. A run in flight when
// the worker is upgraded replays its history on the new code, so a change to the order or shape of its activities and
// children must keep these replaying (patched() in workflows/make-video.ts), as the render's do (render-replay.test.ts).
//   make-video-keepers-of-the-light          music made beside the scenes, the thumbnail while it renders
//   make-video-words-changed-while-it-renders a scene edited during the render: the creator's Generate All awaited,
//                                             the video rendered again, the thumbnail made again
//   make-video-a-scene-that-cannot-be-drawn  a picture that fails: the run fails, nothing rendered
// Recorded by `RECORD_HISTORIES=1 npm test -- integration make-video-pipeline` (stop 66, 659f91f's workflow code).
import fs from "node:fs";
import { fileURLToPath } from "node:url";
import { historyFromJSON } from "@temporalio/common/lib/proto-utils";
import { Worker } from "@temporalio/worker";
import { describe, expect, it } from "vitest";

const workflowsPath = fileURLToPath(new URL("./index.ts", import.meta.url));
const read = (name: string) => JSON.parse(fs.readFileSync(new URL(`../tests/fixtures/histories/${name}.json`, import.meta.url), "utf8"));
const RUNS = ["make-video-keepers-of-the-light", "make-video-words-changed-while-it-renders", "make-video-a-scene-that-cannot-be-drawn"];

describe("the make-video workflow replays recorded runs", () => {
  it("replays every recorded run without a nondeterminism error", { timeout: 240_000 }, async () => {
    const histories = RUNS.map((name) => ({ workflowId: name, history: historyFromJSON(read(name)) }));
    // each recorded run started children and ended as it was recorded (the last one failed)
    for (const { history } of histories) expect(history.events!.some((e) => e.startChildWorkflowExecutionInitiatedEventAttributes)).toBe(true);
    const results = [];
    for await (const result of Worker.runReplayHistories({ workflowsPath, replayName: "make-video" }, histories)) results.push(result);
    expect(results.map((r) => [r.workflowId, r.error ? String(r.error) : null])).toEqual(RUNS.map((name) => [name, null]));
  });
});
