// A Piper voice's ONNX session on a thread of its own. onnxruntime-node's `run` holds the calling thread for the
// whole inference (measured: 2.3 s without a tick of a 20 ms timer for one long sentence under load), and the
// worker's main thread also polls Temporal and sends every activity's heartbeat. So each voice gets one
// worker_threads thread that loads its model once and runs its inferences one after another; the main thread only
// posts phoneme ids and receives samples. The thread's code is inline (no file to find beside a compiled bundle) and
// loads onnxruntime-node by its resolved path.
import fs from "node:fs";
import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";

/** The thread: loads the model it is sent, then answers each run with the audio and the phoneme durations. */
const THREAD_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const ort = require(workerData.ortPath);
let session;
let durationsOutput = null;
parentPort.on("message", async (m) => {
  try {
    if (m.type === "load") {
      session = await ort.InferenceSession.create(m.model, { intraOpNumThreads: 1, interOpNumThreads: 1, executionProviders: ["cpu"] });
      durationsOutput = m.durationsOutput;
      parentPort.postMessage({ id: m.id });
      return;
    }
    const ids = BigInt64Array.from(m.ids.map(BigInt));
    const out = await session.run({
      input: new ort.Tensor("int64", ids, [1, ids.length]),
      input_lengths: new ort.Tensor("int64", BigInt64Array.from([BigInt(ids.length)]), [1]),
      scales: new ort.Tensor("float32", Float32Array.from(m.scales), [3]),
    });
    const audio = Float32Array.from(out[session.outputNames[0]].data);
    const frames = durationsOutput && out[durationsOutput] ? Float32Array.from(out[durationsOutput].data) : null;
    parentPort.postMessage({ id: m.id, audio, frames }, frames ? [audio.buffer, frames.buffer] : [audio.buffer]);
  } catch (e) {
    parentPort.postMessage({ id: m.id, error: String((e && e.message) || e) });
  }
});
`;

export type PiperInference = { audio: Float32Array; frames: Float32Array | null };

type Pending = { resolve: (value: { audio?: Float32Array; frames?: Float32Array | null }) => void; reject: (e: Error) => void };

export class PiperSession {
  private readonly thread: Worker;
  private readonly pending = new Map<number, Pending>();
  private next = 0;
  private failed: Error | null = null;

  private constructor() {
    const ortPath = createRequire(import.meta.url).resolve("onnxruntime-node");
    this.thread = new Worker(THREAD_SOURCE, { eval: true, workerData: { ortPath } });
    // an idle voice never keeps the process alive
    this.thread.unref();
    this.thread.on("message", (m: { id: number; audio?: Float32Array; frames?: Float32Array | null; error?: string }) => {
      const waiting = this.pending.get(m.id);
      this.pending.delete(m.id);
      if (!waiting) return;
      if (m.error) waiting.reject(new Error(m.error));
      else waiting.resolve(m);
    });
    const stop = (e: Error) => {
      this.failed = e;
      for (const waiting of this.pending.values()) waiting.reject(e);
      this.pending.clear();
    };
    this.thread.on("error", stop);
    this.thread.on("exit", (code) => stop(new Error(`the voice's inference thread stopped (exit code ${code})`)));
  }

  private send(message: Record<string, unknown>): Promise<{ audio?: Float32Array; frames?: Float32Array | null }> {
    if (this.failed) return Promise.reject(this.failed);
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      // a run in flight keeps the process alive until it answers
      this.thread.ref();
      this.thread.postMessage({ ...message, id });
    }).finally(() => {
      if (this.pending.size === 0) this.thread.unref();
    }) as Promise<{ audio?: Float32Array; frames?: Float32Array | null }>;
  }

  /** A session for the model's bytes (its durations tensor already an output, named `durationsOutput`). */
  static async load(model: Uint8Array, durationsOutput: string | null): Promise<PiperSession> {
    const session = new PiperSession();
    try {
      await session.send({ type: "load", model, durationsOutput });
    } catch (e) {
      await session.close();
      throw e;
    }
    return session;
  }

  /** One inference: the sentence's phoneme ids and Piper's [noise, length, noise_w] scales. */
  async run(ids: number[], scales: [number, number, number]): Promise<PiperInference> {
    const answer = await this.send({ type: "run", ids, scales });
    return { audio: answer.audio!, frames: answer.frames ?? null };
  }

  async close(): Promise<void> {
    await this.thread.terminate();
  }
}

/**
 * What `load` makes of a voice's model file, kept for the process's life in `cache` and made again when the file
 * changes (its size or time): loading a session takes about a second. A failed load is forgotten, so the next call
 * tries again. The voice itself (piper.server.ts) and its duration clock (piper-clock.server.ts) keep one each.
 */
export function perVoiceFile<T>(cache: Map<string, Promise<T>>, modelFile: string, load: (model: Buffer) => Promise<T>): Promise<T> {
  const stat = fs.statSync(modelFile);
  const key = `${modelFile}|${stat.size}|${stat.mtimeMs}`;
  let loaded = cache.get(key);
  if (!loaded) {
    loaded = fs.promises.readFile(modelFile).then(load);
    loaded.catch(() => cache.delete(key));
    cache.set(key, loaded);
  }
  return loaded;
}
