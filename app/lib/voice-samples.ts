// The voice picker's "Play sample" (issue 48): one fixed sentence per language, which the chosen offline voice reads
// once on the worker; the WAV is kept in media storage under a key per voice and reused by every later play.
// Pure: the browser decides whether a voice has a sample, the worker what it reads, the web where it is kept.
import { ESPEAK_PREFIX, isEspeakVoice, isPiperVoice, PIPER_PREFIX } from "./voices";
import { languageOf, primaryLanguage } from "./languages";

/** The sentence each language's voices read. The same for every voice of a language, so samples compare. */
const SAMPLE_SENTENCES: Record<string, string> = {
  en: "Hello! This is how I sound when I read your script aloud.",
  fr: "Bonjour ! Voici ma voix quand je lis votre texte à voix haute.",
  es: "¡Hola! Así suena mi voz cuando leo tu guion en voz alta.",
  de: "Hallo! So klingt meine Stimme, wenn ich Ihr Skript vorlese.",
  it: "Ciao! Ecco come suona la mia voce quando leggo il tuo testo ad alta voce.",
  pt: "Olá! É assim que soa a minha voz quando leio o seu texto em voz alta.",
  nl: "Hallo! Zo klinkt mijn stem als ik je tekst voorlees.",
  pl: "Dzień dobry! Tak brzmi mój głos, gdy czytam twój tekst na głos.",
  sv: "Hej! Så här låter min röst när jag läser ditt manus högt.",
  da: "Hej! Sådan lyder min stemme, når jeg læser dit manuskript højt.",
  nb: "Hei! Slik høres stemmen min ut når jeg leser manuset ditt høyt.",
  fi: "Hei! Tältä ääneni kuulostaa, kun luen käsikirjoituksesi ääneen.",
  cs: "Dobrý den! Takto zní můj hlas, když čtu váš text nahlas.",
  ro: "Bună! Așa sună vocea mea când citesc textul tău cu voce tare.",
  hu: "Szia! Így szól a hangom, amikor felolvasom a szövegedet.",
  el: "Γεια σας! Έτσι ακούγεται η φωνή μου όταν διαβάζω το κείμενό σας.",
  ru: "Здравствуйте! Так звучит мой голос, когда я читаю ваш текст вслух.",
  uk: "Вітаю! Так звучить мій голос, коли я читаю ваш текст уголос.",
  tr: "Merhaba! Metninizi sesli okuduğumda sesim böyle çıkıyor.",
  ar: "مرحبا! هكذا يبدو صوتي عندما أقرأ نصك بصوت عال.",
  he: "שלום! כך נשמע הקול שלי כשאני קורא את הטקסט שלך בקול.",
  hi: "नमस्ते! जब मैं आपकी स्क्रिप्ट ज़ोर से पढ़ता हूँ, तो मेरी आवाज़ ऐसी लगती है।",
  id: "Halo! Beginilah suara saya saat membacakan naskah Anda.",
  vi: "Xin chào! Đây là giọng của tôi khi đọc kịch bản của bạn.",
  ja: "こんにちは。あなたの台本を読み上げると、私の声はこのように聞こえます。",
  ko: "안녕하세요! 제가 대본을 소리 내어 읽으면 이런 목소리가 납니다.",
  zh: "你好！这就是我朗读你的脚本时的声音。",
};

/** The sentence a voice of this language reads as its sample (English for a language without one). */
export function sampleSentence(language: string | null | undefined): string {
  const primary = primaryLanguage(languageOf(language).code);
  return SAMPLE_SENTENCES[primary] ?? SAMPLE_SENTENCES.en!;
}

/** The offline voices' ids: a neural (Piper) voice, an eSpeak NG voice, or one of Flite's short names. */
export const FLITE_VOICE_IDS = ["awb", "kal", "kal16", "rms", "slt"] as const;

/** Whether the picker offers a sample of this voice: the offline ones only (a cloud voice's sample would be paid for). */
export function hasVoiceSample(voiceId: string | null | undefined): voiceId is string {
  return isPiperVoice(voiceId) || isEspeakVoice(voiceId) || (FLITE_VOICE_IDS as readonly string[]).includes(voiceId ?? "");
}

/** The storage key of a voice's sample: "voice-samples/piper/en_US-joe-medium.wav", "voice-samples/espeak/fr_f3.wav". */
export function voiceSampleKey(voiceId: string): string {
  const [kind, name] = voiceId.startsWith(PIPER_PREFIX)
    ? ["piper", voiceId.slice(PIPER_PREFIX.length)]
    : voiceId.startsWith(ESPEAK_PREFIX)
      ? ["espeak", voiceId.slice(ESPEAK_PREFIX.length).replace("+", "_")]
      : ["flite", voiceId];
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,150}$/.test(name)) throw new Error(`No sample can be kept for the voice ${JSON.stringify(voiceId)}`);
  return `voice-samples/${kind}/${name}.wav`;
}

/** Where the browser gets a voice's sample. */
export const voiceSampleUrl = (voiceId: string) => `/api/voice-sample?voiceId=${encodeURIComponent(voiceId)}`;
