// Voices by language (issue 24): the offline eSpeak NG voices' ids, the voice list grouped by language, and the
// default voice for a project's language. Pure: used by the voice pickers in the browser and by the server.
import type { Voice } from "~/providers/types";
import { LANGUAGES, languageLabel, languageOf, primaryLanguage, type Language } from "./languages";

export const ESPEAK_PREFIX = "espeak:";
/** eSpeak NG voice variants offered per language: its default (male) voice and a female one. */
export const ESPEAK_VARIANTS = [
  { suffix: "", gender: "male", label: "" },
  { suffix: "+f3", gender: "female", label: ", female" },
] as const;

/** The offline English voice used when an English project has none chosen (Flite's most intelligible). */
export const DEFAULT_ENGLISH_OFFLINE_VOICE = "rms";

export const isEspeakVoice = (id: string | null | undefined): id is string => !!id && id.startsWith(ESPEAK_PREFIX);

/** Offline neural voices (Piper voice files in the voices folders): "piper:en_US-joe-medium". */
export const PIPER_PREFIX = "piper:";
export const isPiperVoice = (id: string | null | undefined): id is string => !!id && id.startsWith(PIPER_PREFIX);

/** The first offline neural voice of the language in the list: the offline default for its language (decision 205). */
export function neuralVoiceFor(language: string, voices: Voice[]): Voice | undefined {
  const primary = primaryLanguage(language);
  return voices.find((v) => v.neural && v.language && primaryLanguage(v.language) === primary);
}

export const espeakVoiceId = (code: string, variant = "") => `${ESPEAK_PREFIX}${languageOf(code).code}${variant}`;

/** "espeak:fr+f3" -> French, "+f3"; null for anything that is not one of our eSpeak voices. */
export function parseEspeakVoice(id: string): { language: Language; variant: string } | null {
  if (!isEspeakVoice(id)) return null;
  const rest = id.slice(ESPEAK_PREFIX.length);
  const plus = rest.indexOf("+");
  const code = plus < 0 ? rest : rest.slice(0, plus);
  const variant = plus < 0 ? "" : rest.slice(plus);
  const language = LANGUAGES.find((l) => l.code.toLowerCase() === code.toLowerCase());
  if (!language || !ESPEAK_VARIANTS.some((v) => v.suffix === variant)) return null;
  return { language, variant };
}

/** Every eSpeak NG voice we offer: two per language, English aside (Flite's English voices sound better). */
export function espeakVoices(): Voice[] {
  return LANGUAGES.filter((l) => l.code !== "en").flatMap((l) =>
    ESPEAK_VARIANTS.map((v) => ({
      id: `${ESPEAK_PREFIX}${l.code}${v.suffix}`,
      name: `${l.name}${v.label} (eSpeak NG)`,
      category: "premade" as const,
      gender: v.gender,
      language: l.code,
    })),
  );
}

/** A voice speaks a language when their primary subtags match; a voice without a language speaks any. */
export function speaksLanguage(voice: Pick<Voice, "language">, language: string): boolean {
  return !voice.language || primaryLanguage(voice.language) === primaryLanguage(language);
}

export type LanguageVoiceGroup = {
  /** the language code, or "any" for multilingual voices */
  language: string;
  heading: string;
  voices: Voice[];
};

export const MULTILINGUAL_HEADING = "Any language (multilingual)";

/**
 * Voices grouped by language: voices without a language (ElevenLabs' multilingual ones) first, then the
 * `first` language (the project's), then English, then the rest by English name. A voice id listed twice
 * appears once; the order inside a group is kept.
 */
export function groupVoicesByLanguage(voices: Voice[], first?: string): LanguageVoiceGroup[] {
  const unique = [...new Map(voices.map((v) => [v.id, v])).values()];
  const groups = new Map<string, LanguageVoiceGroup>();
  for (const voice of unique) {
    const key = voice.language ? languageOf(voice.language).code : "any";
    let group = groups.get(key);
    if (!group) {
      group = { language: key, heading: key === "any" ? MULTILINGUAL_HEADING : languageLabel(key), voices: [] };
      groups.set(key, group);
    }
    group.voices.push(voice);
  }
  const firstCode = first ? languageOf(first).code : undefined;
  const rank = (g: LanguageVoiceGroup) => (g.language === "any" ? 0 : g.language === firstCode ? 1 : g.language === "en" ? 2 : 3);
  const byName = (g: LanguageVoiceGroup) => LANGUAGE_NAME_ORDER.get(languageOf(g.language).code) ?? 0;
  return [...groups.values()].sort((a, b) => rank(a) - rank(b) || byName(a) - byName(b));
}

/**
 * Each language's place when the languages are sorted by English name. The names are plain ASCII words, so code
 * unit order is the English order (voices.test.ts checks it against `localeCompare(..., "en")`); not localeCompare
 * itself: /create groups the voices when they arrive, and a page's first collator loads ICU's data (several ms of
 * main thread; issue 36, decision 134).
 */
export const LANGUAGE_NAME_ORDER: ReadonlyMap<string, number> = new Map(
  [...LANGUAGES].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)).map((l, i) => [l.code, i]),
);

/**
 * The voice a project's narration uses: the first of `preferred` (the project's choice, then the creator's saved
 * voice) that is in `voices` and speaks the language; else an offline neural voice of the language when one is
 * installed; else the language's default offline voice when the list has it (Flite's rms for English, eSpeak NG
 * otherwise); else the first voice of the language; else undefined (the provider's own default).
 */
export function defaultVoiceFor(language: string, voices: Voice[], preferred: (string | null | undefined)[] = []): string | undefined {
  const byId = new Map(voices.map((v) => [v.id, v]));
  for (const id of preferred) {
    const voice = id ? byId.get(id) : undefined;
    if (voice && speaksLanguage(voice, language)) return voice.id;
  }
  const neural = neuralVoiceFor(language, voices);
  if (neural) return neural.id;
  const primary = primaryLanguage(language);
  const fallback = primary === "en" ? DEFAULT_ENGLISH_OFFLINE_VOICE : espeakVoiceId(language);
  if (byId.has(fallback)) return fallback;
  return voices.find((v) => v.language && primaryLanguage(v.language) === primary)?.id;
}
