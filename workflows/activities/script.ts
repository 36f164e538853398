// Activities of the script stage. Built by a factory so tests can hand in a provider of their own.
import { Context } from "@temporalio/activity";
import type { SignalDefinition } from "@temporalio/common";
import { PAUSE_BETWEEN_SCENES_SECONDS, planNarration } from "~/lib/narration";
import { VIDEO_FPS } from "../../app/lib/timeline/timing";
import { sceneCountFor } from "~/lib/storyboard";
import { resolutionValue } from "~/lib/video-format";
import { narrationOf, speakingRateOf } from "~/providers/speech/speaking-rate.server";
import { clockCorrectionOf, clockedNarrationOf, recordClockReading } from "~/providers/speech/phoneme-clock.server";
import { DURATION_READINGS, piperClockedNarrationOf } from "~/providers/speech/piper-clock.server";
import { warmPiperVoice } from "~/providers/speech/piper.server";
import { getEnv } from "~/core/env.server";
import { isEspeakVoice, isPiperVoice } from "~/lib/voices";
import { speechRateFactor } from "~/lib/voice-speed";
import { voiceForProject } from "./storyboard";
import { proofreadText } from "~/providers/text/scenes";
import type { ExpandChunkRequest, ScriptChunkRequest, SpeechProvider, TextProvider, TextStreamOptions } from "~/providers/types";
import { prisma } from "~/core/db.server";
import { getUserSettings } from "~/core/settings.server";
import { countWords, EXPANSION_THRESHOLD, MAX_EXPANSION_ATTEMPTS, planChunks } from "~/lib/script";
import { withHeartbeat } from "../shared/heartbeat";
import { requireProjectOwner } from "./ownership";
import { scriptFitDraftSignal, scriptStreamedSignal, type ScriptFit, type ScriptLengthPlan, type ScriptStreamed } from "../shared/script";
import { asActivityFailure, providersForUser } from "./providers";
import { withoutCloudLikeWaits } from "~/providers/cloud-like-latency";

export type ScriptActivityDeps = {
  textProviderFor: (userId: string) => Promise<TextProvider>;
  /** The voice that will read the script (its speaking rate sets the script's length). */
  speechProviderFor?: (userId: string) => Promise<SpeechProvider>;
};

const defaultDeps: ScriptActivityDeps = {
  textProviderFor: async (userId) => (await providersForUser(userId)).text,
  speechProviderFor: async (userId) => (await providersForUser(userId)).speech,
};

/** At most one progress signal a second while a provider streams. */
const STREAM_SIGNAL_INTERVAL_MS = 1000;

/** Signals the workflow this activity works for, best effort (no client in a mock activity environment). */
function signalOwnWorkflow<Args extends unknown[]>(signal: SignalDefinition<Args>, ...args: Args): void {
  try {
    const ctx = Context.current();
    const workflowId = ctx.info.workflowExecution?.workflowId;
    if (workflowId) void ctx.client.workflow.getHandle(workflowId).signal(signal, ...args).catch(() => {});
  } catch {
    // outside an activity, or no client: progress moves per step only
  }
}

/**
 * Tells the running workflow how many words of the chunk have streamed in, through the worker's own client.
 * Best effort: progress is a nicety, and the activity never waits on it or fails for it.
 */
function streamProgressTo(phase: ScriptStreamed["phase"], chunkIndex: number | undefined): TextStreamOptions | undefined {
  if (chunkIndex === undefined) return undefined;
  let ctx: Context;
  try {
    ctx = Context.current();
  } catch {
    return undefined;
  }
  const workflowId = ctx.info.workflowExecution?.workflowId;
  if (!workflowId) return undefined;
  let last = 0;
  let sent = -1;
  return {
    onWords(words) {
      const now = Date.now();
      if (words === sent || now - last < STREAM_SIGNAL_INTERVAL_MS) return;
      last = now;
      sent = words;
      ctx.heartbeat({ streamedWords: words });
      signalOwnWorkflow(scriptStreamedSignal, { phase, chunkIndex, words });
    },
  };
}

/** A script whose measured narration is within this share of its planned length is not rewritten. */
export const FIT_TOLERANCE = 0.02;
/**
 * The same when drafts are timed by a clock (decision 258: the neural voice's own durations, Flite's phoneme clock): a
 * draft costs milliseconds, so the fit aims at the middle of the band, leaving the clock's error and the neural
 * voice's reading-to-reading spread (about 1 % a Short) inside the 3 % it is held to (the narration promises 5 %).
 */
export const CLOCK_FIT_TOLERANCE = 0.01;
/**
 * Rewrites the offline writer gets to come closer (the closest of all is kept), and the words the voice may speak
 * to time them all (a long script is timed on a sample of about TIMING_SAMPLE_WORDS, so it gets one): two scripts
 * of the same word count read up to 15 % apart, so a Short needs several draws to land within a few per cent,
 * while a long script averages out in one or two (decision 111). Drafts timed by the clock speak no words, so
 * only the rewrite count bounds them.
 */
export const MAX_FIT_REWRITES = 10;
/** Readings by the voice that check a draft chosen by the phoneme clock (Flite's voices, decision 258). */
export const MAX_VOICE_CHECKS = 6;
/** Rewrites timed by the corrected clock when a reading by the voice left no draft near the plan (decision 258). */
export const REWRITES_AFTER_A_CHECK = 6;
export const FIT_REWRITE_WORD_BUDGET = 2500;

export function createScriptActivities(deps: ScriptActivityDeps = defaultDeps) {
  const speechFor = deps.speechProviderFor ?? defaultDeps.speechProviderFor!;

  /** The plan for a project: its scenes, its voice and that voice's measured (or typical) pace. */
  async function narrationPlanFor(projectId: string, userId: string, durationSeconds: number, speedOverride?: number) {
    await requireProjectOwner(userId, projectId);
    const project = await prisma.project.findUniqueOrThrow({ where: { id: projectId } });
    const sceneCount = sceneCountFor(resolutionValue(project.resolution), durationSeconds);
    const settings = await getUserSettings(userId);
    const speech = await speechFor(userId);
    // the voice that will read it: the project's, the saved one when it speaks the language, else the language's default
    const voiceId = await voiceForProject(speech, project, settings.elevenLabsVoiceId);
    const rate = await speakingRateOf(speech, voiceId);
    const speed = speedOverride ?? speechRateFactor(project);
    const plan = planNarration({ durationSeconds, sceneCount, wordsPerSecond: rate.wordsPerSecond, speed });
    return { plan, rate, sceneCount, speech, voiceId, speed };
  }

  // Heartbeats while the provider works: a worker that dies mid-call is noticed within the heartbeat
  // timeout, and the chunk is retried on another worker instead of waiting out the whole call timeout.
  const withProvider = async <T>(userId: string, fn: (text: TextProvider) => Promise<T>): Promise<T> => {
    try {
      return await withHeartbeat(async () => fn(await deps.textProviderFor(userId)));
    } catch (e) {
      throw asActivityFailure(e);
    }
  };

  return {
    /**
     * The script's length for the project: the requested duration less the pauses between its scenes, spoken at
     * the creator's voice's rate (measured once for offline voices) and the project's voice speed.
     */
    async planScriptLength(input: { projectId: string; userId: string; durationSeconds: number; speed?: number }): Promise<ScriptLengthPlan> {
      const { plan, rate, sceneCount } = await withHeartbeat(() => narrationPlanFor(input.projectId, input.userId, input.durationSeconds, input.speed));
      return { targetWords: plan.targetWords, wordsPerSecond: rate.wordsPerSecond, sceneCount, measured: rate.measured };
    },

    /**
     * Times an offline script by a clock of the offline voice that will read it (decision 258: a neural voice's own
     * durations, Flite's phoneme clock checked once by the voice; eSpeak NG's voice, or a voice with no clock, by
     * speaking every scene) and, when its narration is off the planned length by more than CLOCK_FIT_TOLERANCE
     * (FIT_TOLERANCE when spoken), has the offline writer write it again with the word count corrected by what was
     * measured (up to MAX_FIT_REWRITES times; the closest is kept). A model's script, or a cloud voice,
     * is left as it is: rewriting would spend the creator's credits (docs/decisions/111).
     */
    async fitScriptToTime(input: {
      projectId: string;
      userId: string;
      title: string;
      topic: string;
      durationSeconds: number;
      targetWords: number;
      seed: string;
      chunks: string[];
      speed?: number;
      /** the project's language: a rewrite is written in it too */
      language?: string;
    }): Promise<ScriptFit> {
      return withHeartbeat(async () => {
        const text = await deps.textProviderFor(input.userId);
        const { sceneCount, speech, voiceId, speed, rate } = await narrationPlanFor(input.projectId, input.userId, input.durationSeconds, input.speed);
        if (text.source !== "offline" || speech.source !== "offline") return { chunks: input.chunks, rewrites: 0 };
        // The video's length as the timeline will make it: each scene's speech plus its pause and half a frame of
        // rounding. Voice speed scales the audio, not the words: the measured speech is at speed 1.
        const perScene = PAUSE_BETWEEN_SCENES_SECONDS + 0.5 / VIDEO_FPS;
        // How a draft is timed (decision 258): a neural voice by its own durations (piper-clock.server.ts, a few
        // hundredths of a CPU second); Flite by its phoneme clock, the chosen draft then read once by the voice
        // (Flite reads a text the same every time, so that reading is the voiceovers' length); eSpeak NG, whose
        // synthesis costs about what the clock does, and any voice without a clock, by speaking every draft.
        let timer: "durations" | "phonemes" | "voice" = isPiperVoice(voiceId) ? "durations" : rate.clock && !isEspeakVoice(voiceId) ? "phonemes" : "voice";
        // the voice that will read the scenes loads while the drafts are timed, on a worker that makes voiceovers
        if (timer === "durations" && getEnv().WORKER_QUEUES.includes("heavy")) warmPiperVoice(voiceId!);
        // the phoneme clock's correction for this voice: the voice's readings of the drafts it chose, this fit's and before
        let clockScale = timer === "phonemes" ? clockCorrectionOf(speech.name, voiceId) : 1;
        const tolerance = () => (timer === "voice" ? FIT_TOLERANCE : CLOCK_FIT_TOLERANCE);
        const timeDraft = async (script: string): Promise<{ speechSeconds: number; scenes: number; spokenWords: number } | undefined> => {
          if (timer === "durations") {
            try {
              // the drafts share sentences: each is timed once in this fit and the ones after it (decision 291)
              const timed = await piperClockedNarrationOf(voiceId!, script, sceneCount, DURATION_READINGS, true);
              return timed && { ...timed, spokenWords: 0 };
            } catch {
              // the voice's model gives no durations (or is gone): its phoneme clock times this draft and the rest
              timer = rate.clock ? "phonemes" : "voice";
            }
          }
          if (timer === "phonemes" && rate.clock) {
            try {
              const clocked = await clockedNarrationOf(rate.clock, voiceId, script, sceneCount);
              return clocked && { speechSeconds: clocked.speechSeconds * clockScale, scenes: clocked.scenes, spokenWords: 0 };
            } catch {
              // eSpeak NG gone since the voice was calibrated: the voice times this draft and the rest
              timer = "voice";
            }
          }
          return narrationOf(speech, voiceId, script, sceneCount);
        };
        const scriptOf = (chunks: string[]) => proofreadText(chunks.map((c) => c.trim()).join("\n\n"));
        const measure = async (chunks: string[]) => {
          const script = scriptOf(chunks);
          const narration = await timeDraft(script);
          if (!narration) return undefined;
          const speechSeconds = narration.speechSeconds / speed;
          return {
            speechSeconds,
            words: countWords(script),
            spokenWords: narration.spokenWords,
            videoSeconds: speechSeconds + narration.scenes * perScene,
            pauseSeconds: narration.scenes * perScene,
          };
        };
        const first = await measure(input.chunks);
        if (first === undefined) return { chunks: input.chunks, rewrites: 0 };
        const offBy = (m: { videoSeconds: number }) => m.videoSeconds / input.durationSeconds - 1;
        type Draft = { chunks: string[] } & NonNullable<typeof first>;
        let best: Draft = { chunks: input.chunks, ...first };
        let latest = best;
        // the drafts the phoneme clock timed that the voice has not read: the checks below read the nearest of them
        const clockedDrafts: Draft[] = first.spokenWords === 0 ? [best] : [];
        // the pace over every draw so far: one script's pace is a noisy guess of the next one's
        let pooledWords = first.words;
        let pooledSpeech = first.speechSeconds;
        let rewrites = 0;
        // the words spoken to time the rewrites: the fit's cost, bounded whatever the video's length
        let spoken = 0;
        // the rewrites this fit may write: MAX_FIT_REWRITES, and REWRITES_AFTER_A_CHECK more after each reading by the voice
        let maxRewrites = MAX_FIT_REWRITES;
        const tell = () => signalOwnWorkflow(scriptFitDraftSignal, { draft: rewrites, maxRewrites, bestSeconds: best.videoSeconds, plannedSeconds: input.durationSeconds });
        tell();
        const rewriteUntilClose = async () => {
          while (Math.abs(offBy(best)) > tolerance() && rewrites < maxRewrites && spoken + latest.spokenWords <= FIT_REWRITE_WORD_BUDGET) {
            // the words this voice needs for the speech the video has room for
            const words = Math.max(1, Math.round((pooledWords / pooledSpeech) * (input.durationSeconds - latest.pauseSeconds)));
            rewrites++;
            // a fresh draw each time: the same seed and a similar count would write much the same script again
            const chunks = await writeOffline(withoutCloudLikeWaits(text), { ...input, seed: `${input.seed}:fit${rewrites}` }, words);
            const measured = await measure(chunks);
            if (measured === undefined) break;
            latest = { chunks, ...measured };
            if (measured.spokenWords === 0) clockedDrafts.push(latest);
            spoken += measured.spokenWords;
            pooledWords += measured.words;
            pooledSpeech += measured.speechSeconds;
            if (Math.abs(offBy(latest)) < Math.abs(offBy(best))) best = latest;
            tell();
          }
        };
        await rewriteUntilClose();
        // The phoneme clock misses some of what Flite does (its pauses at commas, its sentence ends: 2-4 % a draft,
        // not all of it a steady bias). So the drafts it timed are read by the voice, nearest the plan first, until
        // one is within FIT_TOLERANCE (at most MAX_VOICE_CHECKS readings). Each reading scales the clock, this fit's
        // drafts and the correction kept for the voice; when no draft left is near by the corrected clock, the
        // writer draws REWRITES_AFTER_A_CHECK more. The draft kept is the nearest the voice read: a draft only the
        // clock timed is never kept once a reading showed the clock off (a Short once came out 5.6 % long that way).
        let closestRead: Draft | undefined;
        for (let check = 0; check < MAX_VOICE_CHECKS && timer === "phonemes" && clockedDrafts.length > 0; check++) {
          clockedDrafts.sort((a, b) => Math.abs(offBy(a)) - Math.abs(offBy(b)));
          const draft = clockedDrafts.shift()!;
          const narration = await narrationOf(speech, voiceId, scriptOf(draft.chunks), sceneCount);
          if (!narration) break;
          const speechSeconds = narration.speechSeconds / speed;
          const ratio = speechSeconds / draft.speechSeconds;
          recordClockReading(speech.name, voiceId, clockScale * ratio);
          clockScale *= ratio;
          // every pace and draft so far came from the clock: scaled as it is
          pooledSpeech *= ratio;
          for (const d of clockedDrafts) Object.assign(d, { speechSeconds: d.speechSeconds * ratio, videoSeconds: d.speechSeconds * ratio + d.pauseSeconds });
          spoken += narration.spokenWords;
          const read: Draft = { ...draft, speechSeconds, spokenWords: narration.spokenWords, videoSeconds: speechSeconds + draft.pauseSeconds };
          if (!closestRead || Math.abs(offBy(read)) < Math.abs(offBy(closestRead))) closestRead = read;
          best = closestRead;
          latest = read;
          tell();
          if (Math.abs(offBy(best)) <= FIT_TOLERANCE || check + 1 === MAX_VOICE_CHECKS) break;
          if (clockedDrafts.some((d) => Math.abs(offBy(d)) <= CLOCK_FIT_TOLERANCE)) continue;
          maxRewrites = rewrites + REWRITES_AFTER_A_CHECK;
          await rewriteUntilClose();
          best = closestRead;
        }
        return { chunks: best.chunks, rewrites, videoSeconds: best.videoSeconds, plannedSeconds: input.durationSeconds };
      });
    },

    async markScriptStarted(input: { projectId: string; workflowId: string; targetWords: number }): Promise<void> {
      const data = {
        status: "processing" as const,
        workflowId: input.workflowId,
        targetWords: input.targetWords,
        text: null,
        wordCount: null,
        error: null,
        startedAt: new Date(),
        completedAt: null,
        writtenBy: null,
      };
      await prisma.script.upsert({ where: { projectId: input.projectId }, create: { projectId: input.projectId, ...data }, update: data });
    },

    async writeScriptChunk(input: ScriptChunkRequest & { userId: string }): Promise<string> {
      const { userId, ...request } = input;
      return withProvider(userId, (text) => text.writeScriptChunk(request, streamProgressTo("generating_chunks", request.chunkIndex)));
    },

    async expandScriptChunk(input: ExpandChunkRequest & { userId: string; chunkIndex?: number }): Promise<string> {
      const { userId, chunkIndex, ...request } = input;
      return withProvider(userId, (text) => text.expandScriptChunk(request, streamProgressTo("expanding_chunks", chunkIndex)));
    },

    /** Joins the chunks, proofreads the whole, and saves it as the project's completed script. */
    async proofreadAndSaveScript(input: { projectId: string; userId: string; title: string; chunks: string[]; language?: string }): Promise<{ wordCount: number }> {
      await requireProjectOwner(input.userId, input.projectId);
      const joined = input.chunks.map((c) => c.trim()).join("\n\n");
      let writtenBy: string | null = null;
      const text = await withProvider(input.userId, (provider) => {
        writtenBy = provider.name;
        return provider.proofreadScript({ title: input.title, text: joined, language: input.language });
      });
      const wordCount = countWords(text);
      await prisma.script.update({
        where: { projectId: input.projectId },
        // the provider that finished it: the /script page says who wrote it
        data: { status: "completed", text, wordCount, error: null, completedAt: new Date(), writtenBy },
      });
      return { wordCount };
    },

    /** Records a failed or cancelled run, and logs a failure for the owner's error list. */
    async markScriptEnded(input: { projectId: string; status: "error" | "cancelled"; error: string }): Promise<void> {
      await prisma.script.updateMany({ where: { projectId: input.projectId }, data: { status: input.status, error: input.error } });
    },
  };
}

export type ScriptActivities = ReturnType<typeof createScriptActivities>;

/** The whole script again with the offline writer, as the workflow writes it (chunks, then short ones expanded). */
async function writeOffline(text: TextProvider, video: { title: string; topic: string; seed: string; language?: string }, targetWords: number): Promise<string[]> {
  const targets = planChunks(targetWords);
  const chunks: string[] = [];
  for (let i = 0; i < targets.length; i++) {
    const request = { title: video.title, topic: video.topic, chunkIndex: i, totalChunks: targets.length, targetWords: targets[i]!, seed: video.seed, language: video.language };
    let chunk = await text.writeScriptChunk(request);
    for (let attempt = 1; attempt <= MAX_EXPANSION_ATTEMPTS && countWords(chunk) < targets[i]! * EXPANSION_THRESHOLD; attempt++) {
      chunk = await text.expandScriptChunk({ title: video.title, topic: video.topic, text: chunk, targetWords: targets[i]!, attempt, seed: video.seed, language: video.language });
    }
    chunks.push(chunk);
  }
  return chunks;
}
