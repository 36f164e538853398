// Voice speed per project (issue 24): 0.7x to 1.3x, applied by every voice provider. Each provider uses its own
// rate setting as far as its documented range allows; the rest is done by time-stretching (ffmpeg atempo, which
// keeps the pitch). Pure: the browser (slider), the server (validation), the providers and the script writer
// (how many words fit a duration) all use it.
import { z } from "zod";

export const VOICE_SPEED = { min: 0.7, max: 1.3, default: 1, step: 0.05 } as const;

export const VoiceSpeedSchema = z.coerce
  .number({ message: `Voice speed must be a number from ${VOICE_SPEED.min} to ${VOICE_SPEED.max}.` })
  .min(VOICE_SPEED.min, `Voice speed must be at least ${VOICE_SPEED.min}.`)
  .max(VOICE_SPEED.max, `Voice speed must be at most ${VOICE_SPEED.max}.`);

/** A speed within the range, rounded to hundredths; anything unreadable is 1. */
export function clampVoiceSpeed(speed: number | null | undefined): number {
  if (typeof speed !== "number" || !Number.isFinite(speed)) return VOICE_SPEED.default;
  return Math.round(Math.min(VOICE_SPEED.max, Math.max(VOICE_SPEED.min, speed)) * 100) / 100;
}

/**
 * How much faster than the voice's own pace a project's narration is spoken: multiply a voice's measured
 * words per second by it (1.3 -> 30 % more words per second; the same text takes 1/1.3 of the time).
 */
export function speechRateFactor(project: { voiceSpeed?: number | null }): number {
  return clampVoiceSpeed(project.voiceSpeed);
}

/** "1.0x", "1.25x" */
export function formatVoiceSpeed(speed: number): string {
  const s = clampVoiceSpeed(speed);
  return `${Number.isInteger(s * 10) ? s.toFixed(1) : s.toFixed(2)}x`;
}

export type SpeedPlan = {
  /** the factor the provider's own rate setting applies (1: not used) */
  native: number;
  /** the factor left for time-stretching (ffmpeg atempo); 1: none */
  tempo: number;
};

/** The rate range each provider documents for its own setting. */
export const NATIVE_SPEED_RANGE = {
  /** eSpeak NG `-s` words per minute: 80 to 450, so the whole 0.7-1.3 range is native */
  espeak: { min: 0.7, max: 1.3 },
  /** Flite `duration_stretch`: any positive factor */
  flite: { min: 0.7, max: 1.3 },
  /** ElevenLabs voice_settings.speed: documented 0.7 to 1.2 */
  elevenlabs: { min: 0.7, max: 1.2 },
} as const;

export type SpeedProvider = keyof typeof NATIVE_SPEED_RANGE;

/** Splits a speed between the provider's own rate and a time-stretch, so native x tempo = speed. */
export function speedPlan(provider: SpeedProvider, speed: number): SpeedPlan {
  const s = clampVoiceSpeed(speed);
  const range = NATIVE_SPEED_RANGE[provider];
  const native = Math.min(range.max, Math.max(range.min, s));
  const tempo = Math.round((s / native) * 10_000) / 10_000;
  return { native, tempo: Math.abs(tempo - 1) < 1e-3 ? 1 : tempo };
}

/** eSpeak NG's default rate is 175 words per minute. */
export const ESPEAK_DEFAULT_WPM = 175;
export const espeakWordsPerMinute = (native: number) => Math.round(ESPEAK_DEFAULT_WPM * native);
/** Flite stretches durations: 1.3x faster is a stretch of 1/1.3. */
export const fliteDurationStretch = (native: number) => Math.round((1 / native) * 10_000) / 10_000;
