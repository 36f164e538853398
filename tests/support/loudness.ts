// The loudness of part of a voiceover: to check that a word's timing sits where the voice is heard.
import { readWavInfo } from "~/providers/wav";

/** The loudness (RMS, 0..1) of a 16-bit mono WAV between two times, in seconds. */
export function loudness(wav: Buffer, from: number, to: number): number {
  const info = readWavInfo(wav);
  const first = Math.max(0, Math.floor(from * info.sampleRate));
  const last = Math.min(info.dataLength / 2, Math.floor(to * info.sampleRate));
  let sum = 0;
  for (let i = first; i < last; i++) sum += (wav.readInt16LE(info.dataOffset + 2 * i) / 32768) ** 2;
  return Math.sqrt(sum / Math.max(1, last - first));
}
