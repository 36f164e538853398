// Whether a video must be declared as AI-made (YouTube's `status.containsSyntheticMedia`, TikTok's `is_aigc`),
// derived from what made it (decision 240): a voiceover spoken by a synthetic voice other than Flite's robotic offline
// voice, a picture drawn by an AI image provider, or a clip made by an AI video provider. Stock photos and clips
// (credited), the creator's own media and the offline illustrations (drawn by code, no AI) need no declaration.
import { isOfflineProvider, providerPhrase } from "./provenance";

const FLITE = "Offline voice (Flite)";

export type SceneOrigin = {
  cellIndex: number;
  audioUrl: string | null;
  voiceMadeBy: string | null;
  imageUrl: string | null;
  imageSource: string;
  imageMadeBy: string | null;
  clipUrl: string | null;
  hasMediaCredit: boolean;
};

export type AiMadeVerdict = {
  /** declare the video as AI-made / synthetic */
  declare: boolean;
  /** what made it, one line per kind ("Voices: ElevenLabs (4 scenes)") */
  reasons: string[];
};

const tally = (names: string[]) => {
  const counts = new Map<string, number>();
  for (const n of names) counts.set(n, (counts.get(n) ?? 0) + 1);
  return [...counts.entries()].map(([n, c]) => `${providerPhrase(n)} (${c} scene${c === 1 ? "" : "s"})`).join(", ");
};

/** `aiClips`: the scenes whose clip an AI video provider made, with the provider's name. */
export function aiMadeVerdict(scenes: readonly SceneOrigin[], aiClips: ReadonlyMap<number, string> = new Map()): AiMadeVerdict {
  const voices = scenes.filter((s) => s.audioUrl && s.voiceMadeBy && s.voiceMadeBy !== FLITE).map((s) => s.voiceMadeBy!);
  const pictures = scenes
    .filter((s) => s.imageUrl && !s.clipUrl && s.imageSource === "generated" && !s.hasMediaCredit && s.imageMadeBy && !isOfflineProvider(s.imageMadeBy))
    .map((s) => s.imageMadeBy!);
  const clips = scenes.filter((s) => s.clipUrl && !s.hasMediaCredit && aiClips.has(s.cellIndex)).map((s) => aiClips.get(s.cellIndex)!);
  const reasons: string[] = [];
  if (voices.length) reasons.push(`AI voice: ${tally(voices)}`);
  if (pictures.length) reasons.push(`AI pictures: ${tally(pictures)}`);
  if (clips.length) reasons.push(`AI clips: ${tally(clips)}`);
  return { declare: reasons.length > 0, reasons };
}

/** The sentence the publish step shows under the switch. */
export function aiMadeSummary(verdict: AiMadeVerdict): string {
  return verdict.declare
    ? `Made with AI: ${verdict.reasons.join("; ")}.`
    : "No AI voice, AI picture or AI clip in this video (stock media, your own media, offline illustrations or the robotic offline voice): nothing to declare.";
}
