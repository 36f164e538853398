// A Piper voice's ONNX session in a process of its own (piper-voice-process.mjs). onnxruntime-node's `run` holds the
// calling thread for the whole inference (measured: 2.3 s without a tick of a 20 ms timer for one long sentence under
// load), and the worker's main thread also polls Temporal and sends every activity's heartbeat: so the voice was
// first given a thread. But a thread's model and buffers are the worker's memory, and every program the worker then
// started (ffmpeg, eSpeak) cost 20 CPU ms and 40 ms of event loop to copy its page tables (3 without): so a process
// (decision 282), which reads the model itself. The worker only sends phoneme ids and receives samples.
import fs from "node:fs";
import { projectFile } from "~/lib/project-files.server";
import { SpeechProcess } from "./speech-process.server";

const VOICE_PROCESS = () => projectFile("app/providers/speech/piper-voice-process.mjs");

export type PiperInference = { audio: Float32Array; frames: Float32Array | null };

type Answer = { audio?: Float32Array; frames?: Float32Array | null; durationsOutput?: string | null };

export class PiperSession {
  private readonly process = new SpeechProcess<Answer>(VOICE_PROCESS(), "the voice's process", ["--expose-gc"]);
  /** The durations tensor's name (per phoneme id, in frames); null when the model has none (no word timings). */
  durationsOutput: string | null = null;

  private constructor() {}

  /**
   * A session for the voice's model file: with its durations tensor as an output, or (`durationsOnly`, the narration
   * fit's clock) cut down to what computes the durations.
   */
  static async load(modelFile: string, { durationsOnly = false } = {}): Promise<PiperSession> {
    const session = new PiperSession();
    try {
      const answer = await session.process.request({ type: "load", modelFile, durationsOnly });
      session.durationsOutput = answer.durationsOutput ?? null;
    } catch (e) {
      await session.close();
      throw e;
    }
    return session;
  }

  /** One inference: the sentence's phoneme ids and Piper's [noise, length, noise_w] scales. */
  async run(ids: number[], scales: [number, number, number]): Promise<PiperInference> {
    const answer = await this.process.request({ type: "run", ids, scales });
    return { audio: answer.audio!, frames: answer.frames ?? null };
  }

  close(): Promise<void> {
    return this.process.close();
  }
}

/**
 * What `load` makes of a voice's model file, kept for the process's life in `cache` and made again when the file
 * changes (its size or time): loading a session takes about a second. A failed load is forgotten, so the next call
 * tries again. The voice itself (piper.server.ts) and its duration clock (piper-clock.server.ts) keep one each.
 */
export function perVoiceFile<T>(cache: Map<string, Promise<T>>, modelFile: string, load: (modelFile: string) => Promise<T>): Promise<T> {
  const stat = fs.statSync(modelFile);
  const key = `${modelFile}|${stat.size}|${stat.mtimeMs}`;
  let loaded = cache.get(key);
  if (!loaded) {
    loaded = load(modelFile);
    loaded.catch(() => cache.delete(key));
    cache.set(key, loaded);
  }
  return loaded;
}
