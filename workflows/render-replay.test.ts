// The render workflow stays replay-safe (decision 156): recorded histories of chunked renders, made by stub
// activities on the test Temporal server, replay against today's workflow code without a nondeterminism error.
//   render-chunked-before-sound-loudness  a run of the workflow before the sound was normalised on its own: the
//                                         sound mixed, the chunks, then the join (which normalised the loudness)
//   render-chunked-sound-loudness         a run since: the mix, the chunks, the sound's loudness on the render
//                                         queue once the mix was stored, then the join (a stream copy)
// A change to the order or shape of the activities must keep both replaying (patched() in workflows/render.ts).
import fs from "node:fs";
import { fileURLToPath } from "node:url";
import { historyFromJSON } from "@temporalio/common/lib/proto-utils";
import { Worker } from "@temporalio/worker";
import { describe, it } from "vitest";

const workflowsPath = fileURLToPath(new URL("./render.ts", import.meta.url));
const history = (name: string) => historyFromJSON(JSON.parse(fs.readFileSync(new URL(`../tests/fixtures/histories/${name}.json`, import.meta.url), "utf8")));

describe("the render workflow replays recorded runs", () => {
  it.each(["render-chunked-before-sound-loudness", "render-chunked-sound-loudness"])("%s", { timeout: 120_000 }, async (name) => {
    await Worker.runReplayHistory({ workflowsPath, replayName: name }, history(name));
  });
});
