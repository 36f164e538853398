// The offline music's synthesis in a worker thread of its own (soundfont.server.ts starts it, one track a thread).
// Plain JavaScript, loaded by Node as it is (the web server and the worker run from dist/, this file from app/).
// In: workerData { arrangement, soundFont (the .sf3 file's path), settings, niceOffset }. Out: { progress } messages,
// then { pcm } (16-bit stereo little-endian samples, the buffer transferred, not copied).
import fs from "node:fs";
import os from "node:os";
import { parentPort, workerData } from "node:worker_threads";
import { SoundBankLoader, SpessaSynthProcessor } from "spessasynth_core";

const { arrangement, soundFont, settings, niceOffset } = workerData;

// On Linux a nice value belongs to a thread: this one goes `niceOffset` below the thread that started it, as a
// render's ffmpeg does (worker-priority.ts), so the script and the scenes made beside the music take the cores first.
if (niceOffset > 0) {
  try {
    const tid = Number(fs.readlinkSync("/proc/thread-self").split("/").pop());
    os.setPriority(tid, Math.min(19, os.getPriority(tid) + niceOffset));
  } catch {
    // not Linux, or no /proc: the thread runs at its process's priority
  }
}
const { sampleRate: rate, block: BLOCK, masterGain, fadeInSeconds, fadeOutSeconds, mix, channels } = settings;

const data = fs.readFileSync(soundFont);
const bank = SoundBankLoader.fromArrayBuffer(data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength));
const synth = new SpessaSynthProcessor(rate, { effectsEnabled: true, maxBufferSize: BLOCK });
synth.soundBankManager.addSoundBank(bank, "main");
await synth.processorInitialized;
const [pad, bass, arp, lead] = arrangement.programs;
synth.programChange(channels.pad, pad);
synth.programChange(channels.bass, bass);
synth.programChange(channels.arp, arp);
synth.programChange(channels.lead, lead);
// volume (7), pan (10) and reverb send (91) per channel, so the parts sit apart in the mix
for (const [channel, volume, panning, reverb] of mix) {
  synth.controllerChange(channel, 7, volume);
  synth.controllerChange(channel, 10, panning);
  synth.controllerChange(channel, 91, reverb);
}

const total = Math.round(arrangement.seconds * rate);
const cues = [];
for (const e of arrangement.events) {
  cues.push({ sample: Math.floor(e.time * rate), on: true, channel: e.channel, note: e.note, velocity: e.velocity });
  cues.push({ sample: Math.min(total, Math.floor((e.time + e.duration) * rate)), on: false, channel: e.channel, note: e.note, velocity: 0 });
}
// offs before ons at the same sample, so a repeated note retriggers
cues.sort((a, b) => a.sample - b.sample || Number(a.on) - Number(b.on));

const pcm = Buffer.alloc(total * 4);
const left = new Float32Array(BLOCK);
const right = new Float32Array(BLOCK);
const fadeIn = fadeInSeconds * rate;
const fadeOut = Math.min(fadeOutSeconds * rate, total / 3);
const reportEvery = rate * 2;
let next = 0;
for (let start = 0; start < total; start += BLOCK) {
  const count = Math.min(BLOCK, total - start);
  while (next < cues.length && cues[next].sample < start + count) {
    const cue = cues[next++];
    if (cue.on) synth.noteOn(cue.channel, cue.note, cue.velocity);
    else synth.noteOff(cue.channel, cue.note);
  }
  left.fill(0);
  right.fill(0);
  synth.process(left, right, 0, count);
  for (let i = 0; i < count; i++) {
    const n = start + i;
    const envelope = Math.min(1, n / fadeIn, (total - n) / fadeOut);
    // a fixed loudness (the arrangement's density is known), then a soft clip so no peak ever wraps
    pcm.writeInt16LE(Math.round(Math.tanh(left[i] * masterGain) * envelope * 32767), n * 4);
    pcm.writeInt16LE(Math.round(Math.tanh(right[i] * masterGain) * envelope * 32767), n * 4 + 2);
  }
  if (start % reportEvery < BLOCK) parentPort.postMessage({ progress: start / total });
}
const out = pcm.buffer.slice(pcm.byteOffset, pcm.byteOffset + pcm.byteLength);
parentPort.postMessage({ pcm: out }, [out]);
