// The narration languages a project can have (issue 24): BCP-47 codes, their names, and what Reelsmith can do in
// each without keys. Shared by the browser (the /create select) and the server (validation, providers).
import { z } from "zod";

export type Language = {
  /** BCP-47 code stored on the project */
  code: string;
  /** English name, as the UI lists it */
  name: string;
  /** the language's own name for itself */
  nativeName: string;
  /** the eSpeak NG voice that speaks it offline (`espeak-ng -v <espeak>`) */
  espeak: string;
  /** the offline script writer has a grammar for it */
  offlineWriter: boolean;
};

export const DEFAULT_LANGUAGE = "en";

export const LANGUAGES: readonly Language[] = [
  { code: "en", name: "English", nativeName: "English", espeak: "en-us", offlineWriter: true },
  { code: "fr", name: "French", nativeName: "Français", espeak: "fr-fr", offlineWriter: true },
  { code: "es", name: "Spanish", nativeName: "Español", espeak: "es", offlineWriter: true },
  { code: "de", name: "German", nativeName: "Deutsch", espeak: "de", offlineWriter: false },
  { code: "it", name: "Italian", nativeName: "Italiano", espeak: "it", offlineWriter: false },
  { code: "pt", name: "Portuguese (Portugal)", nativeName: "Português", espeak: "pt", offlineWriter: false },
  { code: "pt-BR", name: "Portuguese (Brazil)", nativeName: "Português do Brasil", espeak: "pt-br", offlineWriter: false },
  { code: "nl", name: "Dutch", nativeName: "Nederlands", espeak: "nl", offlineWriter: false },
  { code: "pl", name: "Polish", nativeName: "Polski", espeak: "pl", offlineWriter: false },
  { code: "sv", name: "Swedish", nativeName: "Svenska", espeak: "sv", offlineWriter: false },
  { code: "da", name: "Danish", nativeName: "Dansk", espeak: "da", offlineWriter: false },
  { code: "nb", name: "Norwegian", nativeName: "Norsk bokmål", espeak: "nb", offlineWriter: false },
  { code: "fi", name: "Finnish", nativeName: "Suomi", espeak: "fi", offlineWriter: false },
  { code: "cs", name: "Czech", nativeName: "Čeština", espeak: "cs", offlineWriter: false },
  { code: "ro", name: "Romanian", nativeName: "Română", espeak: "ro", offlineWriter: false },
  { code: "hu", name: "Hungarian", nativeName: "Magyar", espeak: "hu", offlineWriter: false },
  { code: "el", name: "Greek", nativeName: "Ελληνικά", espeak: "el", offlineWriter: false },
  { code: "ru", name: "Russian", nativeName: "Русский", espeak: "ru", offlineWriter: false },
  { code: "uk", name: "Ukrainian", nativeName: "Українська", espeak: "uk", offlineWriter: false },
  { code: "tr", name: "Turkish", nativeName: "Türkçe", espeak: "tr", offlineWriter: false },
  { code: "ar", name: "Arabic", nativeName: "العربية", espeak: "ar", offlineWriter: false },
  { code: "he", name: "Hebrew", nativeName: "עברית", espeak: "he", offlineWriter: false },
  { code: "hi", name: "Hindi", nativeName: "हिन्दी", espeak: "hi", offlineWriter: false },
  { code: "id", name: "Indonesian", nativeName: "Bahasa Indonesia", espeak: "id", offlineWriter: false },
  { code: "vi", name: "Vietnamese", nativeName: "Tiếng Việt", espeak: "vi", offlineWriter: false },
  { code: "ja", name: "Japanese", nativeName: "日本語", espeak: "ja", offlineWriter: false },
  { code: "ko", name: "Korean", nativeName: "한국어", espeak: "ko", offlineWriter: false },
  { code: "zh", name: "Chinese (Mandarin)", nativeName: "中文", espeak: "cmn", offlineWriter: false },
];

const BY_CODE = new Map(LANGUAGES.map((l) => [l.code.toLowerCase(), l]));

/** The language of a code (case-insensitive); an unknown code falls back to its primary subtag, then to English. */
export function languageOf(code: string | null | undefined): Language {
  const lower = (code ?? "").trim().toLowerCase();
  return BY_CODE.get(lower) ?? BY_CODE.get(lower.split("-")[0] ?? "") ?? BY_CODE.get(DEFAULT_LANGUAGE)!;
}

export const isSupportedLanguage = (code: string) => BY_CODE.has(code.trim().toLowerCase());

/** "French (Français)"; English alone for English. */
export function languageLabel(code: string): string {
  const l = languageOf(code);
  return l.name === l.nativeName ? l.name : `${l.name} (${l.nativeName})`;
}

/** The primary subtag, lower-case: "pt-BR" -> "pt". Voices match a project's language on it. */
export const primaryLanguage = (code: string) => (code.trim().toLowerCase().split("-")[0] ?? "");

export const LanguageSchema = z
  .string({ message: "Language must be a language code such as en or fr." })
  .trim()
  .max(20, "Language must be a language code such as en or fr.")
  .refine(isSupportedLanguage, { message: `Language must be one of ${LANGUAGES.map((l) => l.code).join(", ")}.` })
  .transform((code) => languageOf(code).code);

/** Whether the offline writer can write this language (English, French, Spanish); otherwise it writes English. */
export const offlineWriterWrites = (code: string) => languageOf(code).offlineWriter;

/** The languages the offline writer writes, as a sentence lists them: "English, French and Spanish". */
export function offlineWriterLanguages(): string {
  const names = LANGUAGES.filter((l) => l.offlineWriter).map((l) => l.name);
  return names.length > 1 ? `${names.slice(0, -1).join(", ")} and ${names.at(-1)}` : (names[0] ?? "");
}

/** What /script says when the offline writer cannot write the project's language. */
export function offlineWriterNote(code: string): string | null {
  const l = languageOf(code);
  if (l.offlineWriter) return null;
  return `The offline script writer writes only ${offlineWriterLanguages()}, so this ${l.name} project's script is in English. For a script in ${l.name}, save a Gemini API key or an OpenAI-compatible model in Settings and generate the script again.`;
}

/** The line a text model's prompt carries so it writes in the project's language. */
export function writeInLanguage(code: string | undefined, what = "Write"): string {
  const l = languageOf(code);
  return l.name === l.nativeName ? `${what} in ${l.name}.` : `${what} in ${l.name} (${l.nativeName}), whatever the language of the title and topic.`;
}
