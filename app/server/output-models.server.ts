// Who picks a video's Shorts and who translates its versions (issue 51, decision 246): the creator's text model when
// it can (Gemini with their key: TextProvider.pickShortMoments and translateTexts), else the offline ways, the
// rule-based pick (app/lib/short-runs.ts) and Apertium. The model's runs are checked like a creator's (in the video,
// in order, within the length as the renderers time it, not overlapping); none usable, or the model failing, falls
// back to the rule-based pick with a note. A failed model translation falls back to Apertium when it has the pair.
import { isSupportedLanguage, LANGUAGES, languageLabel, primaryLanguage } from "~/lib/languages";
import { hookFor, shortSeconds, suggestShortRuns, type ShortSuggestion } from "~/lib/short-runs";
import { isProviderError, textProviderFor } from "~/providers/index.server";
import { APERTIUM_NAME, apertiumMode, apertiumTargets, apertiumTranslate } from "~/providers/translation/apertium.server";
import type { TextProvider } from "~/providers/types";
import { getProviderKeys } from "~/core/settings.server";
import { refusal } from "~/core/refusal.server";

export const RULE_BASED_PICK = "Rule-based pick";
const HOOK_MAX = 90;
const REASON_MAX = 140;

type SceneFacts = { cellIndex: number; voiceoverText: string; audioDuration: number | null };

/** The creator's text model, when it can do `what`; null offline (or a model server without it). */
async function modelFor(userId: string, what: "pickShortMoments" | "translateTexts"): Promise<TextProvider | null> {
  const provider = textProviderFor(await getProviderKeys(userId));
  return provider.source === "cloud" && typeof provider[what] === "function" ? provider : null;
}

export type PickedShorts = { suggestions: ShortSuggestion[]; suggestedBy: string; notice: string | null };

/** The model's runs that a creator could make: in the video, in order, within `maxSeconds`, not overlapping. */
export function usableMoments(moments: readonly { fromScene: number; toScene: number; hook: string; reason: string }[], scenes: readonly SceneFacts[], maxSeconds: number, count: number): ShortSuggestion[] {
  const byIndex = new Map(scenes.map((s, i) => [s.cellIndex, i]));
  const chosen: ShortSuggestion[] = [];
  for (const m of moments) {
    if (chosen.length >= count) break;
    const from = byIndex.get(m.fromScene);
    const to = byIndex.get(m.toScene);
    if (from === undefined || to === undefined || to < from) continue;
    const run = scenes.slice(from, to + 1);
    if (!run.every((s) => s.audioDuration && s.audioDuration > 0)) continue;
    const seconds = shortSeconds(run.map((s) => s.audioDuration!));
    if (seconds > maxSeconds) continue;
    if (chosen.some((c) => m.fromScene <= c.toScene && c.fromScene <= m.toScene)) continue;
    const hook = m.hook.replace(/\s+/g, " ").trim();
    const reason = m.reason.replace(/\s+/g, " ").trim();
    chosen.push({
      fromScene: m.fromScene,
      toScene: m.toScene,
      seconds: Math.round(seconds * 10) / 10,
      hook: hook && hook.length <= HOOK_MAX ? hook : hookFor(run[0]!.voiceoverText),
      reason: reason ? reason.slice(0, REASON_MAX) : "Picked by your text model",
    });
  }
  return chosen.sort((a, b) => a.fromScene - b.fromScene);
}

/** Asked again within this time, the same scenes get the same answer without a second request to the model. */
const CACHE_MS = 10 * 60_000;
const picked = new Map<string, { at: number; value: PickedShorts }>();

/** The suggested Shorts: the creator's model first, the rule-based pick offline or when the model gives nothing usable. */
export async function pickShorts(userId: string, video: { id: string; title: string; language: string }, scenes: readonly SceneFacts[], maxSeconds: number, count = 3): Promise<PickedShorts> {
  const offline = (notice: string | null): PickedShorts => ({ suggestions: suggestShortRuns(scenes, maxSeconds, count), suggestedBy: RULE_BASED_PICK, notice });
  const model = await modelFor(userId, "pickShortMoments");
  if (!model) return offline(null);
  const key = JSON.stringify([userId, video.id, model.name, maxSeconds, count, scenes.map((s) => [s.cellIndex, s.voiceoverText, s.audioDuration])]);
  const cached = picked.get(key);
  if (cached && Date.now() - cached.at < CACHE_MS) return cached.value;
  let value: PickedShorts;
  try {
    const moments = await model.pickShortMoments!({
      title: video.title,
      language: video.language,
      maxSeconds,
      count,
      scenes: scenes.map((s) => ({ index: s.cellIndex, seconds: s.audioDuration ?? 0, text: s.voiceoverText })),
    });
    const suggestions = usableMoments(moments, scenes, maxSeconds, count);
    value = suggestions.length
      ? { suggestions, suggestedBy: model.name, notice: null }
      : offline(`${model.name} suggested no run of scenes within ${maxSeconds} s; these are the rule-based pick's.`);
  } catch (error) {
    if (!isProviderError(error)) throw error;
    return offline(`${model.name} could not suggest Shorts (${error.message}); these are the rule-based pick's.`);
  }
  if (picked.size > 500) picked.clear();
  picked.set(key, { at: Date.now(), value });
  return value;
}

export type Translator = {
  /** shown beside the version and stored as its script's writer: always says machine translation */
  name: string;
  targets: string[];
  translate: (texts: string[], to: string, title: string) => Promise<{ texts: string[]; by: string }>;
};

const modelName = (model: TextProvider) => `${model.name} (machine translation)`;

/** How a video in `from` is translated: the creator's model (every language Reelsmith speaks), else Apertium's pairs. */
export async function translatorFor(userId: string, from: string): Promise<Translator> {
  const apertium = async (texts: string[], to: string) => ({ texts: await apertiumTranslate(texts, from, to), by: APERTIUM_NAME });
  const model = await modelFor(userId, "translateTexts");
  if (!model) return { name: APERTIUM_NAME, targets: apertiumTargets(from).filter(isSupportedLanguage), translate: apertium };
  return {
    name: modelName(model),
    targets: LANGUAGES.map((l) => l.code).filter((code) => primaryLanguage(code) !== primaryLanguage(from)),
    translate: async (texts, to, title) => {
      try {
        return { texts: await model.translateTexts!({ title, from, to, texts }), by: modelName(model) };
      } catch (error) {
        if (!isProviderError(error)) throw error;
        if (apertiumMode(from, to)) return apertium(texts, to);
        throw refusal(502, `${model.name} could not translate the video into ${languageLabel(to)}: ${error.message}`);
      }
    },
  };
}
