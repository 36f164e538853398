// The fundamental frequency of speech in a 16-bit PCM WAV, by autocorrelation: for each 40 ms frame loud enough
// to be voiced, the lag between 2.5 and 16.7 ms (60-400 Hz) where the frame best matches itself; the median
// over the frames whose best normalised correlation is strong (clearly periodic). Tests use it to show that a
// faster voice keeps its pitch.
import { readWavInfo } from "~/providers/wav";

export function samplesOf(wav: Buffer): { rate: number; samples: Float32Array } {
  const info = readWavInfo(wav);
  if (info.bitsPerSample !== 16) throw new Error("16-bit PCM only");
  const count = Math.floor(info.dataLength / 2 / info.channels);
  const samples = new Float32Array(count);
  for (let i = 0; i < count; i++) samples[i] = wav.readInt16LE(info.dataOffset + i * 2 * info.channels) / 32768;
  return { rate: info.sampleRate, samples };
}

export function medianPitchHz(wav: Buffer): { hz: number; voicedFrames: number } {
  const { rate, samples } = samplesOf(wav);
  const frame = Math.round(rate * 0.04);
  const minLag = Math.floor(rate / 400);
  const maxLag = Math.ceil(rate / 60);
  let peak = 0;
  for (const s of samples) peak = Math.max(peak, Math.abs(s));
  const pitches: number[] = [];
  for (let start = 0; start + frame + maxLag < samples.length; start += Math.round(frame / 2)) {
    let energy = 0;
    for (let i = 0; i < frame; i++) energy += samples[start + i]! ** 2;
    if (Math.sqrt(energy / frame) < peak * 0.1) continue;
    let bestLag = 0;
    let best = 0;
    for (let lag = minLag; lag <= maxLag; lag++) {
      let dot = 0;
      let e2 = 0;
      for (let i = 0; i < frame; i++) {
        dot += samples[start + i]! * samples[start + i + lag]!;
        e2 += samples[start + i + lag]! ** 2;
      }
      const r = dot / Math.sqrt(energy * e2 || 1);
      if (r > best) {
        best = r;
        bestLag = lag;
      }
    }
    if (best > 0.6 && bestLag > 0) pitches.push(rate / bestLag);
  }
  pitches.sort((a, b) => a - b);
  return { hz: pitches.length ? pitches[Math.floor(pitches.length / 2)]! : 0, voicedFrames: pitches.length };
}
