// One interface per kind of provider. Each has a cloud implementation (used when the creator saved that
// service's key) and an offline one (the default: works with no key and no internet). Activities call these;
// routes never do. Implementations live beside this file: text/, speech/, image/, music/.
import type { ResolutionValue } from "~/lib/video-format";

export type ProviderSource = "cloud" | "offline";

// ── Text: scripts, scenes and upload metadata ─────────────────────────────────────────────────────
export type ScriptChunkRequest = {
  title: string;
  topic: string;
  /** 0-based */
  chunkIndex: number;
  totalChunks: number;
  /** words this chunk should have */
  targetWords: number;
  /** deterministic output for the same seed (offline writer) */
  seed: string;
  /** the project's language, a BCP-47 code; absent: English */
  language?: string;
};
export type ExpandChunkRequest = { title: string; topic: string; text: string; targetWords: number; attempt: number; seed: string; language?: string };
export type ProofreadRequest = { title: string; text: string; language?: string };
export type SceneSplitRequest = { title: string; script: string; resolution: ResolutionValue; durationSeconds: number; sceneCount: number; seed: string; language?: string };
export type ScenePlan = { imagePrompt: string; voiceoverText: string };
export type MetadataRequest = { title: string; script: string; language?: string };
/** Video ideas for a channel (issue 52, decision 250): from what the channel is about and the titles it already has. */
export type IdeaSuggestionRequest = { channelTopic: string; pastTitles: string[]; count: number; language?: string };
export type SuggestedIdea = { title: string; topic: string };
export type UploadMetadata = { description: string; tags: string[] };

/** A video's scenes offered to a text model to pick Shorts from (issue 51): 0-based, with their spoken seconds. */
export type ShortMomentsRequest = { title: string; language?: string; maxSeconds: number; count: number; scenes: { index: number; seconds: number; text: string }[] };
/** A run of scenes (both included) the model picked, its opening line and why. Checked by the caller. */
export type ShortMoment = { fromScene: number; toScene: number; hook: string; reason: string };
/** Texts to translate, in order (a title, paragraphs, scenes' voiceovers); the answer has as many, in order. */
export type TranslateRequest = { title: string; from: string; to: string; texts: string[] };

/** Where a provider streams its answer: the words written so far, as they arrive (may be called often). */
export type TextStreamOptions = { onWords?: (wordsSoFar: number) => void };

export interface TextProvider {
  readonly name: string;
  readonly source: ProviderSource;
  writeScriptChunk(request: ScriptChunkRequest, stream?: TextStreamOptions): Promise<string>;
  expandScriptChunk(request: ExpandChunkRequest, stream?: TextStreamOptions): Promise<string>;
  proofreadScript(request: ProofreadRequest): Promise<string>;
  splitIntoScenes(request: SceneSplitRequest): Promise<ScenePlan[]>;
  writeUploadMetadata(request: MetadataRequest): Promise<UploadMetadata>;
  /** Runs of scenes for Shorts (a cloud model; the offline writer has none: the rule-based pick is used). */
  pickShortMoments?(request: ShortMomentsRequest): Promise<ShortMoment[]>;
  /** Translation (a cloud model; the offline writer has none: Apertium is used). */
  translateTexts?(request: TranslateRequest): Promise<string[]>;
  /** A model's ideas for a channel's next videos; absent where there is no model (the offline writer): decision 250. */
  suggestVideoIdeas?(request: IdeaSuggestionRequest): Promise<SuggestedIdea[]>;
}

// ── Speech ────────────────────────────────────────────────────────────────────────────────────────
export type VoiceCategory = "premade" | "cloned" | "generated" | "professional";
/** `language`: the BCP-47 code the voice speaks; absent: any (ElevenLabs' multilingual voices). */
export type Voice = {
  id: string;
  name: string;
  category: VoiceCategory;
  gender?: string;
  age?: string;
  accent?: string;
  language?: string;
  /** an offline neural voice (a Piper voice file): the offline default for its language */
  neural?: boolean;
  /** the voice's licence as its files state it, shown beside it in the picker */
  licence?: string;
};
/** When a word of the spoken text starts and ends, seconds into the audio (as the provider measured it). */
export type SpokenWord = { text: string; start: number; end: number };
/**
 * `words`: the provider's own word timings, when it gives them (ElevenLabs' timestamps); absent otherwise.
 * `voiceId` and `provider`: the voice that actually spoke (a default when none was asked for), recorded per scene.
 */
export type SpeechResult = {
  audio: Buffer;
  mimeType: "audio/wav" | "audio/mpeg";
  durationSeconds: number;
  words?: SpokenWord[];
  voiceId?: string;
  provider?: string;
  /** what a creator should know about this voiceover (a chosen voice was missing and another spoke) */
  notice?: string;
};
/** `speed`: 0.7-1.3 (app/lib/voice-speed.ts), 1 when absent; `language`: the project's, picks a default voice. */
export type SpeechRequest = { text: string; voiceId?: string; speed?: number; language?: string };

export interface SpeechProvider {
  readonly name: string;
  readonly source: ProviderSource;
  listVoices(category?: VoiceCategory): Promise<Voice[]>;
  synthesize(request: SpeechRequest): Promise<SpeechResult>;
}

// ── Images ────────────────────────────────────────────────────────────────────────────────────────
export type AspectRatio = "16:9" | "9:16";
export type ImageModel = { id: string; name: string; description: string; group: "custom_models" | "featured_models" | "core_models" };
export type ImageResult = { image: Buffer; mimeType: "image/png" | "image/jpeg"; width: number; height: number };

/** A scene's storyboard: the video's title and every scene's words, in order; `index` is the scene's own. */
export type StoryboardContext = { title: string; scenes: { narration: string; prompt: string }[]; index: number };

export interface ImageProvider {
  readonly name: string;
  readonly source: ProviderSource;
  listModels(): Promise<ImageModel[]>;
  /**
   * `narration` is the scene's voiceover: the offline illustrator reads its subjects from it as well as from the
   * prompt. `storyboard` is the scene's place among its neighbours (the offline illustrator varies the main subject).
   */
  generateImage(request: { prompt: string; aspectRatio: AspectRatio; modelId?: string; seed?: string; narration?: string; storyboard?: StoryboardContext }): Promise<ImageResult>;
}

// ── Music ─────────────────────────────────────────────────────────────────────────────────────────
export type MusicTaskStatus = "pending" | "processing" | "completed" | "error";
export type MusicTrackResult = { title: string; audioUrl?: string; audio?: Buffer; mimeType?: string; durationSeconds: number };

export interface MusicProvider {
  readonly name: string;
  readonly source: ProviderSource;
  /** Starts generation of `trackCount` tracks; returns a task id to poll. */
  startGeneration(request: { prompt: string; trackCount: number; durationSeconds: number; seed?: string }): Promise<{ taskId: string }>;
  poll(taskId: string, options?: MusicPollOptions): Promise<{ status: MusicTaskStatus; tracks: MusicTrackResult[]; error?: string }>;
}
/**
 * Offline music renders while it is polled (the task id carries the request, so any process can poll it);
 * onProgress reports 0..1 as it goes, so an activity can heartbeat. Cloud polls return at once.
 * Completed tracks always carry `audio` (cloud tracks are downloaded from their audioUrl); an offline track is
 * at most 10 minutes long, so longer videos loop it.
 */
export type MusicPollOptions = { onProgress?: (fraction: number) => void };

/** The keys a creator saved (decrypted), used to choose cloud or offline per kind. */
export type ProviderKeys = {
  geminiApiKey?: string;
  elevenLabsApiKey?: string;
  leonardoApiKey?: string;
  sunoApiKey?: string;
  pexelsApiKey?: string;
  /**
   * A Chat Completions server the creator configured (base URL and model; the key is optional). `allowPrivateNetwork`:
   * it may be at a private address (the operator's setting or the owner's account, decision 196).
   */
  openaiCompatible?: { baseUrl: string; model: string; apiKey?: string; allowPrivateNetwork?: boolean };
};
