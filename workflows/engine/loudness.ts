// The delivered video's loudness, brought to the platform's target (docs/decisions/190): the mix is measured first
// (ebur128 over the whole sound track: integrated loudness and true peak), then a gain brings it to the target, with a
// lookahead peak limiter after it when the gain would lift the true peak over the ceiling (ffmpeg's volume and
// alimiter; the level the limiter takes back is found by trying it on the sound, not encoded, and added to the gain:
// decision 291), with the picture copied packet for packet (-c:v copy) and only the sound re-encoded
// (delivery-encoding.ts). The written file is measured again (ebur128, true peak on); when AAC's encoding lifted a
// peak over the ceiling or the level still missed, the sound is written once more from the original with the
// difference taken off. The figures of the delivered file are the ones the render page and the video's facts show.
// (Until decision 190's third round both passes were loudnorm's, which works at 192 kHz: three times the cost.)
//
// One step, called where a video is finished: the render's save step (both renderers) and the music mix. A chunked
// render (decision 156) runs its two passes on its sound track alone, before the join: the first where the sound is
// mixed, the second on the first worker done with its chunk; the join copies that sound as it is. The first pass runs
// at a render's priority (worker-priority.ts), the second, which writes the sound, at the worker's own (decision
// 291): it runs while the other chunk is still drawn, and at the render's niceness, one thread against that chunk's
// encoder threads, it ended seconds after the chunk and held the join back.
import { spawn } from "node:child_process";
import { getEnv } from "~/core/env.server";
import { renderCommand } from "../worker-priority";
import { DELIVERY_CONTAINER_ARGS, deliveryAudioArgs } from "./delivery-encoding";

/**
 * YouTube and Shorts: about -14 LUFS integrated, true peak at most -1 dBTP (decision 190). A gain alone is used while
 * it keeps the true peak at `limiterDbtp` or under; past that the limiter holds the samples' peaks at
 * `sampleLimitDbfs` (a sample-peak limiter: the half dB between leaves room for peaks between samples and for
 * AAC's encoding). The tolerance is how far the delivered file may be from the target before the sound is written
 * once more. `lra` is loudnorm's range target, for analyses an older worker made.
 */
export const LOUDNESS_TARGET = { integratedLufs: -14, truePeakDbtp: -1, limiterDbtp: -1.5, sampleLimitDbfs: -2, lra: 11, toleranceLu: 0.5 } as const;

/** Below this the mix is silence (ebur128's absolute gate is -70 LUFS): nothing to normalise. */
const SILENCE_LUFS = -70;

export type LoudnessMeasure = { integratedLufs: number; truePeakDbtp: number };

type LoudnormStats = { input_i: string; input_tp: string; input_lra: string; input_thresh: string; target_offset: string };

/**
 * Runs ffmpeg; resolves with its log. `onSeconds`: how far into the input it has written (its -progress lines).
 * `background`: at a render's priority (the first pass, which a chunked render runs beside its chunks with time to
 * spare); otherwise at the worker's own (the pass that writes the sound, which the join waits for: decision 291).
 */
function ffmpeg(args: string[], signal?: AbortSignal, onSeconds?: (seconds: number) => void, background = false): Promise<string> {
  return new Promise((resolve, reject) => {
    // an offset of 0 runs ffmpeg at the worker's own priority
    const run = renderCommand(getEnv().FFMPEG_PATH, onSeconds ? ["-progress", "pipe:1", "-nostats", ...args] : args, background ? undefined : 0);
    const child = spawn(run.command, run.args, { stdio: ["ignore", onSeconds ? "pipe" : "ignore", "pipe"] });
    if (onSeconds) {
      let partial = "";
      child.stdout!.setEncoding("utf8");
      child.stdout!.on("data", (chunk: string) => {
        const lines = (partial + chunk).split("\n");
        partial = lines.pop() ?? "";
        for (const line of lines) {
          // out_time_us (out_time_ms is the same figure in microseconds too, in ffmpeg's older name)
          const us = /^out_time_us=(\d+)/.exec(line)?.[1];
          if (us) onSeconds(Number(us) / 1e6);
        }
      });
    }
    let stderr = "";
    child.stderr!.setEncoding("utf8");
    child.stderr!.on("data", (chunk: string) => {
      stderr += chunk;
      // the summaries are at the end: keep the tail of a long log
      if (stderr.length > 1_000_000) stderr = stderr.slice(-200_000);
    });
    const abort = () => child.kill("SIGKILL");
    if (signal?.aborted) abort();
    signal?.addEventListener("abort", abort);
    child.on("error", reject);
    child.on("close", (code, killedBy) => {
      signal?.removeEventListener("abort", abort);
      if (code === 0) resolve(stderr);
      else if (signal?.aborted) reject(new Error("The loudness step was cancelled"));
      else reject(new Error(`ffmpeg could not normalise the loudness (${killedBy ?? `exit ${code}`}): ${stderr.trim().split("\n").slice(-3).join(" | ")}`));
    });
  });
}

/** A figure as ffmpeg prints it: "-inf" is silence. */
const figure = (text: string | undefined) => (text === undefined ? NaN : /^-?inf/i.test(text.trim()) ? -Infinity : Number.parseFloat(text));

/** ebur128's summary of a file's sound: integrated loudness (LUFS) and true peak (dBTP). */
export async function measureLoudness(file: string, signal?: AbortSignal, background = false): Promise<LoudnessMeasure> {
  const stderr = await ffmpeg(["-hide_banner", "-nostdin", "-nostats", "-i", file, "-map", "0:a:0", "-af", "ebur128=peak=true", "-f", "null", "-"], signal, undefined, background);
  const summary = stderr.slice(stderr.lastIndexOf("Summary:"));
  const integrated = /I:\s+(-?[\d.]+|-inf)\s+LUFS/.exec(summary)?.[1];
  const peak = /True peak:\s+Peak:\s+(-?[\d.]+|-inf)\s+dBFS/.exec(summary)?.[1];
  const measure = { integratedLufs: figure(integrated), truePeakDbtp: figure(peak) };
  if (Number.isNaN(measure.integratedLufs) || Number.isNaN(measure.truePeakDbtp)) throw new Error(`ebur128 gave no summary for ${file}`);
  return measure;
}

/** Whether a measured file is where the platform wants it (silence counts: there is nothing to bring up). */
export function meetsTarget(measure: LoudnessMeasure): boolean {
  if (!(measure.integratedLufs > SILENCE_LUFS)) return true;
  return Math.abs(measure.integratedLufs - LOUDNESS_TARGET.integratedLufs) <= LOUDNESS_TARGET.toleranceLu && measure.truePeakDbtp <= LOUDNESS_TARGET.truePeakDbtp;
}

/**
 * Writes `input` to `output` with the sound through `filter` (picture copied, sound encoded as delivered); the
 * picture from `picture` instead when given (`input` is then the sound alone).
 */
async function rewriteSound(input: string, output: string, filter: string, signal?: AbortSignal, picture?: string, onSeconds?: (seconds: number) => void): Promise<void> {
  const inputs = picture ? ["-i", picture, "-i", input, "-map", "0:v:0", "-map", "1:a:0"] : ["-i", input, "-map", "0:v:0?", "-map", "0:a:0"];
  await ffmpeg(
    [
      "-hide_banner",
      "-nostdin",
      "-y",
      "-v",
      "error",
      ...inputs,
      "-c:v",
      "copy",
      "-af",
      filter,
      ...deliveryAudioArgs(),
      ...DELIVERY_CONTAINER_ARGS,
      output,
    ],
    signal,
    onSeconds,
  );
}

/**
 * What the first pass found in a file's sound, as plain data (it may travel to another worker, decision 156): no
 * sound at all, silence (nothing to bring up), or the gain that brings it to the target and, when that gain would
 * lift the true peak over the ceiling, the limit its samples' peaks are held at. ("measured": loudnorm's figures,
 * from a worker older than decision 190's third round.)
 */
export type LoudnessAnalysis = { kind: "no-audio" } | { kind: "silent" } | { kind: "gain"; gainDb: number; limitDbfs: number | null } | { kind: "measured"; stats: LoudnormStats };

/**
 * Trials of the limited gain on the sound itself (not encoded) in the first pass, at most. With a narrated mix and its
 * music the limiter takes about a decibel back; measured on the sound, a trial costs about a sixth of an AAC encode
 * at the delivery's bitrate, and the one encode that follows lands on the target instead of being written twice.
 */
const LIMITER_TRIALS = 3;

/** A trial lands when it is within half the tolerance: the AAC encode after it moves the level a little too. */
const TRIAL_TOLERANCE_LU = LOUDNESS_TARGET.toleranceLu / 2;

/** ebur128's integrated loudness of a file's sound through `filter` (no true peak: a trial needs the level only). */
async function integratedLoudnessThrough(file: string, filter: string, signal?: AbortSignal): Promise<number> {
  const stderr = await ffmpeg(["-hide_banner", "-nostdin", "-nostats", "-i", file, "-map", "0:a:0", "-af", `${filter},ebur128`, "-f", "null", "-"], signal, undefined, true);
  const integrated = figure(/I:\s+(-?[\d.]+|-inf)\s+LUFS/.exec(stderr.slice(stderr.lastIndexOf("Summary:")))?.[1]);
  if (Number.isNaN(integrated)) throw new Error(`ebur128 gave no summary for ${file}`);
  return integrated;
}

/**
 * The first pass over the file's whole sound: its measure, and the gain (and limit) that reach the target. When the
 * limiter is needed, the limited gain is tried on the sound and raised by what the limiter took (decision 291).
 */
export async function analyseLoudness(input: string, signal?: AbortSignal): Promise<LoudnessAnalysis> {
  if (!(await hasAudio(input, signal, true))) return { kind: "no-audio" };
  const measure = await measureLoudness(input, signal, true);
  if (!(measure.integratedLufs > SILENCE_LUFS)) return { kind: "silent" };
  let gainDb = Number((LOUDNESS_TARGET.integratedLufs - measure.integratedLufs).toFixed(2));
  const limitDbfs = measure.truePeakDbtp + gainDb > LOUDNESS_TARGET.limiterDbtp ? LOUDNESS_TARGET.sampleLimitDbfs : null;
  if (limitDbfs === null) return { kind: "gain", gainDb, limitDbfs };
  for (let trial = 0; trial < LIMITER_TRIALS; trial++) {
    const shortfall = LOUDNESS_TARGET.integratedLufs - (await integratedLoudnessThrough(input, gainFilter(gainDb, limitDbfs), signal));
    if (!Number.isFinite(shortfall) || Math.abs(shortfall) <= TRIAL_TOLERANCE_LU) break;
    gainDb = Number((gainDb + Math.min(6, Math.max(-6, shortfall))).toFixed(2));
  }
  return { kind: "gain", gainDb, limitDbfs };
}

/** The gain, then the lookahead limiter when there is a limit (its delay compensated: the sound stays in sync). */
function gainFilter(gainDb: number, limitDbfs: number | null): string {
  const gain = `volume=${gainDb.toFixed(2)}dB`;
  if (limitDbfs === null) return gain;
  // level=disabled: no make-up gain to full scale (alimiter's default), the level stays the one measured
  return `${gain},alimiter=limit=${(10 ** (limitDbfs / 20)).toFixed(4)}:attack=5:release=50:level=disabled:latency=1`;
}

/**
 * The second pass: writes `input` to `output` with its sound at the platform's loudness by what `analysis` found on
 * that same input (the picture copied), and returns the written file's own measure. A silent mix is copied as it is
 * (its sound re-encoded to the delivery's settings); a file without sound is copied unchanged and measures as
 * silence. With `picture`, `input` is the sound alone and the picture is copied from that file.
 */
export async function applyLoudness(
  input: string,
  output: string,
  analysis: LoudnessAnalysis,
  signal?: AbortSignal,
  picture?: string,
  /**
   * The render page's progress: `seconds`, how far into the sound the file is written, as it goes; `written`, once
   * the file is written, before it is measured.
   */
  progress: { seconds?: (seconds: number) => void; written?: () => void } = {},
): Promise<LoudnessMeasure> {
  const onWritten = progress.written;
  if (analysis.kind === "no-audio") {
    // remuxed, not copied: the input may be an intermediate .mov, the output is an MP4 that starts with its index
    await ffmpeg(["-hide_banner", "-nostdin", "-y", "-v", "error", "-i", picture ?? input, "-map", "0:v:0", "-c", "copy", ...DELIVERY_CONTAINER_ARGS, output], signal);
    return { integratedLufs: -Infinity, truePeakDbtp: -Infinity };
  }
  if (analysis.kind === "silent") {
    await rewriteSound(input, output, "anull", signal, picture, progress.seconds);
    onWritten?.();
    return measureLoudness(output, signal);
  }
  if (analysis.kind === "measured") return applyLoudnorm(input, output, analysis.stats, signal, picture);
  await rewriteSound(input, output, gainFilter(analysis.gainDb, analysis.limitDbfs), signal, picture, progress.seconds);
  onWritten?.();
  const first = await measureLoudness(output, signal);
  if (meetsTarget(first)) return first;

  // once more from the original: the level's drift taken back (the limiter lowers it a little), and the limit
  // lowered by any overshoot of the ceiling
  const overshoot = Math.max(0, first.truePeakDbtp - LOUDNESS_TARGET.truePeakDbtp);
  const limit = overshoot > 0 || analysis.limitDbfs !== null ? Math.max(-9, (analysis.limitDbfs ?? LOUDNESS_TARGET.sampleLimitDbfs) - overshoot - 0.3) : null;
  const gain = analysis.gainDb + Math.min(12, Math.max(-12, LOUDNESS_TARGET.integratedLufs - first.integratedLufs));
  await rewriteSound(input, output, gainFilter(gain, limit), signal, picture);
  return measureLoudness(output, signal);
}

/** loudnorm's second pass with the figures its first pass measured (an analysis made by an older worker). */
async function applyLoudnorm(input: string, output: string, stats: LoudnormStats, signal?: AbortSignal, picture?: string): Promise<LoudnessMeasure> {
  const filter =
    `loudnorm=I=${LOUDNESS_TARGET.integratedLufs}:TP=${LOUDNESS_TARGET.limiterDbtp}:LRA=${LOUDNESS_TARGET.lra}` +
    `:measured_I=${stats.input_i}:measured_TP=${stats.input_tp}:measured_LRA=${stats.input_lra}` +
    `:measured_thresh=${stats.input_thresh}:offset=${stats.target_offset}:linear=true,aresample=48000`;
  await rewriteSound(input, output, filter, signal, picture);
  return measureLoudness(output, signal);
}

/**
 * Writes `input` to `output` with its sound at the platform's loudness (the picture copied, from `picture` when
 * `input` is the sound alone), and returns the written file's own measure: both passes, one after the other.
 */
export async function normaliseLoudness(
  input: string,
  output: string,
  signal?: AbortSignal,
  picture?: string,
  /** How far the step is (0 to 1), at each of its passes: measured, written, measured again. */
  onProgress?: (done: number) => void,
): Promise<LoudnessMeasure> {
  const analysis = await analyseLoudness(input, signal);
  // the shares of a 5-minute sound's time: ebur128 1.2 s, the AAC encode about 10 s, ebur128 again
  onProgress?.(0.1);
  const measure = await applyLoudness(input, output, analysis, signal, picture, { written: () => onProgress?.(0.9) });
  onProgress?.(1);
  return measure;
}

async function hasAudio(file: string, signal?: AbortSignal, background = false): Promise<boolean> {
  // ffmpeg lists the streams it read; the first audio stream is the mix
  const stderr = await ffmpeg(["-hide_banner", "-nostdin", "-i", file, "-map", "0:a:0?", "-t", "0", "-f", "null", "-"], signal, undefined, background);
  return /Stream #0:\d+(?:\[[^\]]*\])?(?:\([^)]*\))?: Audio:/.test(stderr);
}

/** A measure as the database keeps it (and as it travels between activities): one decimal, silence (-inf) as null. */
export type StoredLoudness = { loudnessLufs: number | null; truePeakDbtp: number | null };

/** A measure as the database keeps it: one decimal, silence (-inf) as null. */
export function storedLoudness(measure: LoudnessMeasure): StoredLoudness {
  const round = (v: number) => (Number.isFinite(v) ? Math.round(v * 10) / 10 : null);
  return { loudnessLufs: round(measure.integratedLufs), truePeakDbtp: round(measure.truePeakDbtp) };
}
