// 16-bit PCM WAV: writing headers, reading the format and duration back, and measuring loudness.

export type WavInfo = {
  /** the fmt chunk's format: 1 PCM, 3 IEEE float, 0xFFFE extensible, anything else compressed */
  formatTag: number;
  sampleRate: number;
  channels: number;
  bitsPerSample: number;
  dataOffset: number;
  dataLength: number;
  durationSeconds: number;
};

export function wavHeader(dataLength: number, sampleRate: number, channels: number): Buffer {
  const header = Buffer.alloc(44);
  const blockAlign = channels * 2;
  header.write("RIFF", 0, "ascii");
  header.writeUInt32LE(36 + dataLength, 4);
  header.write("WAVE", 8, "ascii");
  header.write("fmt ", 12, "ascii");
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(channels, 22);
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate * blockAlign, 28);
  header.writeUInt16LE(blockAlign, 32);
  header.writeUInt16LE(16, 34);
  header.write("data", 36, "ascii");
  header.writeUInt32LE(dataLength, 40);
  return header;
}

/** Wraps raw little-endian 16-bit PCM (what ElevenLabs' pcm_* formats return) in a WAV file. */
export function pcm16ToWav(pcm: Buffer, sampleRate: number, channels = 1): Buffer {
  return Buffer.concat([wavHeader(pcm.length, sampleRate, channels), pcm]);
}

/** Reads the fmt and data chunks of a PCM WAV; throws on anything else. */
export function readWavInfo(wav: Buffer): WavInfo {
  if (wav.length < 12 || wav.toString("ascii", 0, 4) !== "RIFF" || wav.toString("ascii", 8, 12) !== "WAVE") {
    throw new Error("Not a WAV file");
  }
  let offset = 12;
  let format: { formatTag: number; channels: number; sampleRate: number; bitsPerSample: number } | undefined;
  while (offset + 8 <= wav.length) {
    const id = wav.toString("ascii", offset, offset + 4);
    // Streaming writers (flite among them) may leave the data size as 0 or 0xFFFFFFFF: the rest is data.
    let size = wav.readUInt32LE(offset + 4);
    const body = offset + 8;
    if (id === "fmt ") {
      format = { formatTag: wav.readUInt16LE(body), channels: wav.readUInt16LE(body + 2), sampleRate: wav.readUInt32LE(body + 4), bitsPerSample: wav.readUInt16LE(body + 14) };
    } else if (id === "data") {
      if (!format) throw new Error("WAV data chunk before its fmt chunk");
      if (size === 0 || body + size > wav.length) size = wav.length - body;
      const bytesPerSecond = format.sampleRate * format.channels * (format.bitsPerSample / 8);
      return { ...format, dataOffset: body, dataLength: size, durationSeconds: size / bytesPerSecond };
    }
    offset = body + size + (size % 2);
  }
  throw new Error("WAV file has no data chunk");
}

/** Root mean square of a 16-bit WAV's samples, 0 (silence) to 1 (full scale). */
export function wavRms(wav: Buffer): number {
  const info = readWavInfo(wav);
  if (info.bitsPerSample !== 16) throw new Error(`Only 16-bit WAV is measured, got ${info.bitsPerSample}-bit`);
  const count = Math.floor(info.dataLength / 2);
  if (count === 0) return 0;
  let sum = 0;
  for (let i = 0; i < count; i++) {
    const s = wav.readInt16LE(info.dataOffset + i * 2) / 32768;
    sum += s * s;
  }
  return Math.sqrt(sum / count);
}

/** Where the sound starts and ends in a 16-bit WAV, in seconds (undefined when it is all silence). */
export function wavSoundSpan(wav: Buffer, threshold = 0.01): { start: number; end: number } | undefined {
  const info = readWavInfo(wav);
  if (info.bitsPerSample !== 16) throw new Error(`Only 16-bit WAV is measured, got ${info.bitsPerSample}-bit`);
  const frames = Math.floor(info.dataLength / (2 * info.channels));
  const limit = threshold * 32768;
  const loud = (frame: number) => {
    for (let c = 0; c < info.channels; c++) if (Math.abs(wav.readInt16LE(info.dataOffset + (frame * info.channels + c) * 2)) >= limit) return true;
    return false;
  };
  let first = 0;
  while (first < frames && !loud(first)) first++;
  if (first === frames) return undefined;
  let last = frames - 1;
  while (last > first && !loud(last)) last--;
  return { start: first / info.sampleRate, end: (last + 1) / info.sampleRate };
}

/**
 * The WAV with its leading and trailing silence cut down to `keepSeconds` at each end (a synthesiser's own
 * silence differs from voice to voice; cut, every pause between scenes is the timeline's, and the same).
 * A canonical 44-byte header is written; an all-silent file is returned unchanged.
 */
export function trimWavSilence(wav: Buffer, keepSeconds: number, threshold = 0.01): Buffer {
  return trimWavSilenceAt(wav, keepSeconds, threshold).wav;
}

/** trimWavSilence, with the seconds cut from the start (to move anything timed on the untrimmed audio). */
export function trimWavSilenceAt(wav: Buffer, keepSeconds: number, threshold = 0.01): { wav: Buffer; cutSeconds: number } {
  const info = readWavInfo(wav);
  const span = wavSoundSpan(wav, threshold);
  if (!span) return { wav, cutSeconds: 0 };
  const frameBytes = info.channels * 2;
  const frames = Math.floor(info.dataLength / frameBytes);
  const from = Math.max(0, Math.floor((span.start - keepSeconds) * info.sampleRate));
  const to = Math.min(frames, Math.ceil((span.end + keepSeconds) * info.sampleRate));
  const pcm = wav.subarray(info.dataOffset + from * frameBytes, info.dataOffset + to * frameBytes);
  return { wav: Buffer.concat([wavHeader(pcm.length, info.sampleRate, info.channels), pcm]), cutSeconds: from / info.sampleRate };
}
