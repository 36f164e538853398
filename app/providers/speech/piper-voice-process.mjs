// One Piper voice's ONNX session in a process of its own, started by piper-session.server.ts and spoken to over
// Node's IPC channel (structured clone: the samples come back as Float32Arrays). Why a process and not a thread:
// a thread's model and onnxruntime's buffers (300 MB) are the worker's own memory, and every program the worker
// starts afterwards (ffmpeg, eSpeak, nice) paid for copying its page tables: 20 CPU ms and 40 ms of event loop a
// start, against 3 with the voice out of the process (decision 282). So the model is read here, from its file,
// never in the worker. Messages:
//   { id, type: "load", modelFile, durationsOnly }  -> { id, durationsOutput }   (the durations tensor's name or null)
//   { id, type: "run", ids, scales }                -> { id, audio, frames }     (frames: per phoneme id, or null)
//   { id, type: "durations", sentences, scales }    -> { id, durations }         (each sentence's frames; the clock)
//   any failure                                     -> { id, error }
// It ends with its parent: when the IPC channel closes (the worker ended, even by SIGKILL), so does this process.
import fs from "node:fs";
import * as ort from "onnxruntime-node";
// Node 24 runs the TypeScript module itself (its types are erasable): the same code the tests check
import { durationsOnly, withDurationOutput } from "./onnx-duration-output.ts";

let session = null;
let durationsOutput = null;

/** The model as the session needs it: the durations tensor an output, and for the clock only what computes it. */
function modelFor(file, onlyDurations) {
  const timed = withDurationOutput(fs.readFileSync(file));
  if (!onlyDurations) return timed;
  if (!timed.durationsOutput) throw new Error("the voice has no duration output to time drafts with");
  return { model: durationsOnly(timed.model, timed.durationsOutput), durationsOutput: timed.durationsOutput };
}

/** One sentence's inference: its phoneme ids and Piper's scales in, every output out. */
function infer(ids, scales) {
  const input = BigInt64Array.from(ids.map(BigInt));
  return session.run({
    input: new ort.Tensor("int64", input, [1, input.length]),
    input_lengths: new ort.Tensor("int64", BigInt64Array.from([BigInt(input.length)]), [1]),
    scales: new ort.Tensor("float32", Float32Array.from(scales), [3]),
  });
}

async function answer(m) {
  if (m.type === "load") {
    const timed = modelFor(m.modelFile, m.durationsOnly);
    // one inference thread a voice, one core for it: the worker runs several activities side by side
    session = await ort.InferenceSession.create(timed.model, { intraOpNumThreads: 1, interOpNumThreads: 1, executionProviders: ["cpu"] });
    durationsOutput = timed.durationsOutput;
    // the file's bytes and their patched copy (120 MB) are garbage now: give them back at once (--expose-gc)
    globalThis.gc?.();
    return { durationsOutput };
  }
  if (!session) throw new Error("the voice was not loaded");
  if (m.type === "durations") {
    // a draft's sentences in one message (decision 298): one answer to wait for on the worker's busy event loop, not one
    // a sentence
    if (!durationsOutput) throw new Error("the voice has no duration output");
    const durations = [];
    for (const ids of m.sentences) durations.push(Float32Array.from((await infer(ids, m.scales))[durationsOutput].data));
    return { durations };
  }
  const out = await infer(m.ids, m.scales);
  const audio = Float32Array.from(out[session.outputNames[0]].data);
  const frames = durationsOutput && out[durationsOutput] ? Float32Array.from(out[durationsOutput].data) : null;
  return { audio, frames };
}

process.on("disconnect", () => process.exit(0));
process.on("message", (m) => {
  answer(m).then(
    (result) => process.send({ id: m.id, ...result }),
    (e) => process.send({ id: m.id, error: String((e && e.message) || e) }),
  );
});
