// A Piper voice's ONNX session in a process of its own (piper-voice-process.mjs). onnxruntime-node's `run` holds the
// calling thread for the whole inference (measured: 2.3 s without a tick of a 20 ms timer for one long sentence under
// load), and the worker's main thread also polls Temporal and sends every activity's heartbeat: so the voice was
// first given a thread. But a thread's model and buffers are the worker's memory, and every program the worker then
// started (ffmpeg, eSpeak) cost 20 CPU ms and 40 ms of event loop to copy its page tables (3 without): so a process
// (decision 282), which reads the model itself. The worker only sends phoneme ids and receives samples.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import { projectFile } from "~/lib/project-files.server";

const VOICE_PROCESS = () => projectFile("app/providers/speech/piper-voice-process.mjs");

export type PiperInference = { audio: Float32Array; frames: Float32Array | null };

type Answer = { id: number; audio?: Float32Array; frames?: Float32Array | null; durationsOutput?: string | null; error?: string };
type Pending = { resolve: (value: Answer) => void; reject: (e: Error) => void };

export class PiperSession {
  private readonly child: ChildProcess;
  private readonly pending = new Map<number, Pending>();
  private next = 0;
  private failed: Error | null = null;
  /** The durations tensor's name (per phoneme id, in frames); null when the model has none (no word timings). */
  durationsOutput: string | null = null;

  private constructor() {
    // NODE_OPTIONS is the parent's (a test's loader, a profiler): the voice's process is plain Node
    const { NODE_OPTIONS: _, ...env } = process.env;
    this.child = spawn(process.execPath, ["--no-warnings", "--expose-gc", VOICE_PROCESS()], { stdio: ["ignore", "ignore", "inherit", "ipc"], serialization: "advanced", env });
    // an idle voice never keeps the process alive
    this.idle();
    this.child.on("message", (m: Answer) => {
      const waiting = this.pending.get(m.id);
      this.pending.delete(m.id);
      if (!waiting) return;
      if (m.error) waiting.reject(new Error(m.error));
      else waiting.resolve(m);
    });
    const stop = (e: Error) => {
      this.failed ??= e;
      for (const waiting of this.pending.values()) waiting.reject(this.failed);
      this.pending.clear();
    };
    this.child.on("error", stop);
    this.child.on("exit", (code, signal) => stop(new Error(`the voice's process stopped (${signal ? `signal ${signal}` : `exit code ${code}`})`)));
  }

  private idle() {
    this.child.unref();
    this.child.channel?.unref();
  }

  private send(message: Record<string, unknown>): Promise<Answer> {
    if (this.failed) return Promise.reject(this.failed);
    const id = this.next++;
    return new Promise<Answer>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      // a run in flight keeps the process alive until it answers
      this.child.ref();
      this.child.channel?.ref();
      this.child.send({ ...message, id }, (e) => {
        if (e) reject(e);
      });
    }).finally(() => {
      if (this.pending.size === 0) this.idle();
    });
  }

  /**
   * A session for the voice's model file: with its durations tensor as an output, or (`durationsOnly`, the narration
   * fit's clock) cut down to what computes the durations.
   */
  static async load(modelFile: string, { durationsOnly = false } = {}): Promise<PiperSession> {
    const session = new PiperSession();
    try {
      const answer = await session.send({ type: "load", modelFile, durationsOnly });
      session.durationsOutput = answer.durationsOutput ?? null;
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

  /** The process's id, for a measure of the voice's CPU. */
  get pid(): number | undefined {
    return this.child.pid;
  }

  async close(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = new Promise((resolve) => this.child.once("exit", resolve));
    this.child.kill();
    await exited;
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
