// A Piper voice's ONNX session in a process of its own (piper-voice-process.mjs). onnxruntime-node's `run` holds the
// calling thread for the whole inference (measured: 2.3 s without a tick of a 20 ms timer for one long sentence under
// load), and the worker's main thread also polls Temporal and sends every activity's heartbeat: so the voice was
// first given a thread. But a thread's model and buffers are the worker's memory, and every program the worker then
// started (ffmpeg, eSpeak) cost 20 CPU ms and 40 ms of event loop to copy its page tables (3 without): so a process
// (decision 282), which reads the model itself. The worker only sends phoneme ids and receives samples.
import fs from "node:fs";
import { getEnv } from "~/core/env.server";
import { projectFile } from "~/lib/project-files.server";
import { SpeechProcess } from "./speech-process.server";

const VOICE_PROCESS = () => projectFile("app/providers/speech/piper-voice-process.mjs");

export type PiperInference = { audio: Float32Array; frames: Float32Array | null };

type Answer = { audio?: Float32Array; frames?: Float32Array | null; durations?: Float32Array[]; durationsOutput?: string | null };

/** Every session this process loaded (each voice's and each duration clock's), for closeIdleVoicesSoon. */
const sessions = new Set<PiperSession>();

/**
 * How long a voice must have been silent before a render's own work closes it (closeIdleVoicesSoon): longer than the
 * pause between two scenes' voiceovers in Generate All (a second), so a chain still speaking keeps its voice.
 */
export const VOICE_CLOSE_FOR_RENDER_MS = 2000;

/**
 * A render's own work (its chunks after the scenes are made, its sound) is starting in this process: every voice
 * silent for `afterMs` closes now, and one silent for less closes once it has been silent that long, unless it speaks
 * again. The voice's idle wait (VOICE_IDLE_CLOSE_SECONDS, 10 s) otherwise kept its 500 MB beside the render's first
 * chunk encoders: the pipeline's memory peak (decision 296).
 */
export function closeIdleVoicesSoon(afterMs = VOICE_CLOSE_FOR_RENDER_MS): void {
  for (const session of sessions) session.closeWhenIdle(afterMs);
}

export class PiperSession {
  /** The process with the model loaded (or loading); null before the first load and after an idle close. */
  private ready: Promise<SpeechProcess<Answer>> | null = null;
  private running = 0;
  private idleTimer: NodeJS.Timeout | undefined;
  /** When the last inference ended (performance.now()); the idle close counts from it. */
  private lastSpokeAt = performance.now();
  /** The idle wait set for the current silence, in ms (the shortest asked since the last inference). */
  private idleWaitMs = Infinity;
  /** The durations tensor's name (per phoneme id, in frames); null when the model has none (no word timings). */
  durationsOutput: string | null = null;

  private constructor(
    private readonly modelFile: string,
    private readonly durationsOnly: boolean,
  ) {}

  /**
   * A session for the voice's model file: with its durations tensor as an output, or (`durationsOnly`, the narration
   * fit's clock) cut down to what computes the durations. Its process ends after VOICE_IDLE_CLOSE_SECONDS without an
   * inference, giving back its memory (about 500 MB for a medium voice) to the render that usually follows the
   * voiceovers; the next inference starts it again (about a second). One that stopped (a crash) is started again too.
   */
  static async load(modelFile: string, { durationsOnly = false } = {}): Promise<PiperSession> {
    const session = new PiperSession(modelFile, durationsOnly);
    await session.started();
    sessions.add(session);
    session.closeWhenIdle();
    return session;
  }

  private started(): Promise<SpeechProcess<Answer>> {
    if (this.ready) return this.ready;
    const process = new SpeechProcess<Answer>(VOICE_PROCESS(), "the voice's process", ["--expose-gc"]);
    const ready = process.request({ type: "load", modelFile: this.modelFile, durationsOnly: this.durationsOnly }).then(
      (answer) => {
        this.durationsOutput = answer.durationsOutput ?? null;
        return process;
      },
      async (e: unknown) => {
        if (this.ready === ready) this.ready = null;
        await process.close();
        throw e;
      },
    );
    this.ready = ready;
    return ready;
  }

  /** One inference: the sentence's phoneme ids and Piper's [noise, length, noise_w] scales. */
  async run(ids: number[], scales: [number, number, number]): Promise<PiperInference> {
    const answer = await this.ask({ type: "run", ids, scales });
    return { audio: answer.audio!, frames: answer.frames ?? null };
  }

  /**
   * Each sentence's durations (frames per phoneme id) in one message: a draft timed by the clock asked once per
   * sentence, and under a render each answer waited for the worker's event loop between two frames drawn (decision 298).
   */
  async durations(sentences: number[][], scales: [number, number, number]): Promise<Float32Array[]> {
    if (sentences.length === 0) return [];
    return (await this.ask({ type: "durations", sentences, scales })).durations!;
  }

  private async ask(message: Record<string, unknown>): Promise<Answer> {
    clearTimeout(this.idleTimer);
    this.running++;
    try {
      let process = await this.started();
      if (process.stopped) {
        // it crashed since its last inference: this one gets a new process
        if (this.ready) this.ready = null;
        process = await this.started();
      }
      return await process.request(message);
    } finally {
      this.running--;
      this.lastSpokeAt = performance.now();
      this.idleWaitMs = Infinity;
      this.closeWhenIdle();
    }
  }

  /**
   * Closes the process once it has been silent `afterMs` (VOICE_IDLE_CLOSE_SECONDS by default), counted from its last
   * inference; a shorter wait asked meanwhile wins. Nothing while it speaks: the inference's end asks again.
   */
  closeWhenIdle(afterMs = getEnv().VOICE_IDLE_CLOSE_SECONDS * 1000) {
    if (this.running > 0 || !this.ready || afterMs >= this.idleWaitMs) return;
    this.idleWaitMs = afterMs;
    clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(
      () => {
        if (this.running > 0 || !this.ready) return;
        const ready = this.ready;
        this.ready = null;
        void ready.then((p) => p.close()).catch(() => {});
      },
      Math.max(0, this.lastSpokeAt + afterMs - performance.now()),
    ).unref();
  }

  /** Requests sent and not answered yet: the clock's sessions pick the least busy by it. */
  get pending(): number {
    return this.running;
  }

  /** Whether its process is up (or starting): false after an idle close, until the next inference. */
  get open(): boolean {
    return this.ready !== null;
  }

  async close(): Promise<void> {
    clearTimeout(this.idleTimer);
    const ready = this.ready;
    this.ready = null;
    await ready?.then((p) => p.close()).catch(() => {});
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
