// The offline script writer: a grammar that writes readable narration of a requested length about a title and a
// topic, deterministic for a seed, with no sentence repeated verbatim across a whole script (see offline-grammar).
// It writes English, French for a French project (offline-french.ts) and Spanish for a Spanish one
// (offline-spanish.ts); any other language gets English (app/lib/languages.ts says so on /script).
import type { ExpandChunkRequest, ScriptChunkRequest } from "../types";
import { createRandom, hashString, pick } from "../seed";
import {
  ANGLES,
  BODY_SPACE,
  BODY_TEMPLATES,
  DETAILS,
  OBSERVATIONS,
  SHORT_SPACE,
  SHORT_TEMPLATE,
  bodyParts,
  ordinal,
  shortParts,
} from "./offline-grammar";
import { countWords, fillFrame, keywordsOf, splitSentences } from "./language";
import { languageOf } from "~/lib/languages";
import { ANGLES_FR, BODY_TEMPLATES_FR, DETAILS_FR, NUMBERS_FR, OBSERVATIONS_FR, a, de, fillAngleFr, fillFr, frenchKeywords } from "./offline-french";
import { ANGLES_ES, BODY_TEMPLATES_ES, DETAILS_ES, NUMBERS_ES, OBSERVATIONS_ES, aEs, fillAngleEs, fillEs, spanishKeywords } from "./offline-spanish";

/** One language's phrases and sentence frames. Its lists have the English lists' lengths (the numbering needs it). */
type Grammar = {
  angles: readonly string[];
  observations: readonly string[];
  details: readonly string[];
  bodyTemplates: readonly string[];
  shortTemplate: string;
  ordinal: (n: number) => string;
  keywords: (title: string, topic: string) => string[];
  angle: (template: string, keyword: string) => string;
  fill: typeof fill;
  subjects: (keyword: string) => string[];
  fallbackKeyword: (title: string) => string;
  quoted: (title: string) => string;
  welcomeBrief: (title: string) => string;
  welcome: (title: string, topic: string) => string;
  hook: (keyword: string) => string;
  part: (n: number, total: number, angle: string) => string;
  thanksBrief: (keyword: string) => string;
  thanks: (title: string, keyword: string) => string;
  next: (n: number, angle: string) => string;
};

const ENGLISH: Grammar = {
  angles: ANGLES,
  observations: OBSERVATIONS,
  details: DETAILS,
  bodyTemplates: BODY_TEMPLATES,
  shortTemplate: SHORT_TEMPLATE,
  ordinal,
  keywords(title, topic) {
    // The likeliest nouns of the topic, favouring those the title repeats; a few, so each recurs often enough to read as the subject.
    const fromTopic = keywordsOf(topic, 4, title);
    return fromTopic.length >= 2 ? fromTopic : [...new Set([...fromTopic, ...keywordsOf(title, 4)])];
  },
  angle: (template, keyword) => template.replace("{K}", keyword),
  fill: (template, parts) => fill(template, parts),
  subjects: (keyword) => [keyword, "this subject", "the topic of this video"],
  fallbackKeyword: (title) => title.trim().toLowerCase() || "this subject",
  quoted,
  welcomeBrief: (title) => `Welcome to ${quoted(title)}.`,
  welcome: (title, topic) => `Welcome! This video is called ${quoted(title)}, and it is all about ${topic}.`,
  hook: (keyword) => `Stay with us, because by the end you will see ${keyword} in a new light.`,
  part: (n, total, angle) => `Part ${ordinal(n)} of ${ordinal(total)} looks at ${angle}.`,
  thanksBrief: (keyword) => `Thanks for watching, and subscribe for more about ${keyword}.`,
  thanks: (title, keyword) =>
    `That brings us to the end of ${quoted(title)}. Thank you for watching, and if you found it useful, like the video, subscribe, and share it with someone who is curious about ${keyword}.`,
  next: (n, angle) => `That wraps up part ${ordinal(n)}; next, we turn to ${angle}.`,
};

const guillemets = (title: string) => `« ${title.replace(/[«»“”"]/g, "").trim()} »`;
const nombre = (n: number) => NUMBERS_FR[n - 1] ?? String(n);

const FRENCH: Grammar = {
  angles: ANGLES_FR,
  observations: OBSERVATIONS_FR,
  details: DETAILS_FR,
  bodyTemplates: BODY_TEMPLATES_FR,
  shortTemplate: SHORT_TEMPLATE,
  ordinal: nombre,
  keywords(title, topic) {
    const fromTopic = frenchKeywords(topic, 4, title);
    return fromTopic.length >= 2 ? fromTopic : [...new Set([...fromTopic, ...frenchKeywords(title, 4)])];
  },
  angle: fillAngleFr,
  fill: fillFr,
  subjects: (keyword) => [keyword, "ce sujet", "le thème de cette vidéo"],
  fallbackKeyword: () => "ce sujet",
  quoted: guillemets,
  welcomeBrief: (title) => `Bienvenue dans ${guillemets(title)}.`,
  welcome: (title, topic) => `Bienvenue ! Cette vidéo s'intitule ${guillemets(title)}, et voici son sujet : ${topic}.`,
  hook: (keyword) => `Restez avec nous : à la fin, vous verrez ${keyword} sous un jour nouveau.`,
  part: (n, total, angle) => `La partie ${nombre(n)} sur ${nombre(total)} s'intéresse ${a(angle)}.`,
  thanksBrief: (keyword) => `Merci d'avoir regardé, et abonnez-vous pour en savoir plus sur ${keyword}.`,
  thanks: (title, keyword) =>
    `Nous arrivons à la fin de ${guillemets(title)}. Merci d'avoir regardé ; si cette vidéo vous a été utile, aimez-la, abonnez-vous et partagez-la avec une personne curieuse ${de(keyword)}.`,
  next: (n, angle) => `Ainsi s'achève la partie ${nombre(n)} ; ensuite, nous passons ${a(angle)}.`,
};

const comillas = (title: string) => `«${title.replace(/[«»“”"]/g, "").trim()}»`;
const numero = (n: number) => NUMBERS_ES[n - 1] ?? String(n);

const SPANISH: Grammar = {
  angles: ANGLES_ES,
  observations: OBSERVATIONS_ES,
  details: DETAILS_ES,
  bodyTemplates: BODY_TEMPLATES_ES,
  shortTemplate: SHORT_TEMPLATE,
  ordinal: numero,
  keywords(title, topic) {
    const fromTopic = spanishKeywords(topic, 4, title);
    return fromTopic.length >= 2 ? fromTopic : [...new Set([...fromTopic, ...spanishKeywords(title, 4)])];
  },
  angle: fillAngleEs,
  fill: fillEs,
  subjects: (keyword) => [keyword, "este tema", "el tema de este vídeo"],
  fallbackKeyword: () => "este tema",
  quoted: comillas,
  welcomeBrief: (title) => `Bienvenido a ${comillas(title)}.`,
  welcome: (title, topic) => `¡Bienvenido! Este vídeo se titula ${comillas(title)} y trata de esto: ${topic}.`,
  hook: (keyword) => `Quédate con nosotros: al final verás ${keyword} con otros ojos.`,
  part: (n, total, angle) => `La parte ${numero(n)} de ${numero(total)} se centra en ${angle}.`,
  thanksBrief: (keyword) => `Gracias por ver el vídeo; suscríbete para saber más sobre ${keyword}.`,
  thanks: (title, keyword) =>
    `Llegamos al final de ${comillas(title)}. Gracias por verlo; si te ha resultado útil, dale a me gusta, suscríbete y compártelo con alguien que sienta curiosidad por ${keyword}.`,
  next: (n, angle) => `Así termina la parte ${numero(n)}; a continuación, pasamos ${aEs(angle)}.`,
};

/** The grammar the offline writer uses for a language: French and Spanish for themselves, English for the rest. */
export function offlineGrammarFor(language: string | undefined): "en" | "fr" | "es" {
  const code = languageOf(language).code;
  return code === "fr" || code === "es" ? code : "en";
}
const GRAMMARS = { en: ENGLISH, fr: FRENCH, es: SPANISH } as const;

/** Body sentence numbers reserved for each chunk; short (filler) sentence numbers likewise. */
const BODY_PER_CHUNK = 1000;
const SHORT_PER_CHUNK = 20;
/** Expansions number their sentences from here, clear of the chunks' ranges. */
const EXPANSION_BASE = 200_000;
const EXPANSION_BUCKETS = 1000;
const EXPANSION_PER_BUCKET = 400;

type Subject = { title: string; topic: string; keywords: string[]; offset: number; seed: string; g: Grammar };

function subjectOf(title: string, topic: string, seed: string, language?: string): Subject {
  const g = GRAMMARS[offlineGrammarFor(language)];
  const keywords = g.keywords(title, topic);
  return {
    title: title.trim(),
    topic: topic.trim().replace(/[.!?]+$/, ""),
    keywords: keywords.length ? keywords : [g.fallbackKeyword(title)],
    offset: hashString(`${seed}\u0000${title}\u0000${topic}`),
    seed,
    g,
  };
}

function fill(template: string, parts: { A: string; B: string; C?: string; S?: string }): string {
  return fillFrame(template, parts, { "{S}": parts.S ?? "" });
}

function keywordFor(subject: Subject, key: string): string {
  return pick(createRandom(`${subject.offset}:${key}`), subject.keywords);
}

function angle(subject: Subject, index: number, key: string): string {
  return subject.g.angle(subject.g.angles[index % subject.g.angles.length]!, keywordFor(subject, key));
}

function bodySentence(subject: Subject, n: number): string {
  const p = bodyParts(n, subject.offset % BODY_SPACE);
  const random = createRandom(`${subject.offset}:s:${n}`);
  const keyword = keywordFor(subject, `b${n}`);
  const { g } = subject;
  const S = pick(random, g.subjects(keyword));
  return g.fill(g.bodyTemplates[p.template]!, {
    A: g.angle(g.angles[p.angle]!, keyword),
    B: g.observations[p.observation]!,
    C: g.details[p.detail]!,
    S,
  });
}

function shortSentence(subject: Subject, n: number): string {
  const p = shortParts(n, subject.offset % SHORT_SPACE);
  const { g } = subject;
  return g.fill(g.shortTemplate, { A: g.angle(g.angles[p.angle]!, keywordFor(subject, `s${n}`)), B: g.observations[p.observation]! });
}

function quoted(title: string): string {
  return `“${title.replace(/[“”"]/g, "")}”`;
}

/** Sentences that open, head, and close chunks. Each names its chunk, so none can repeat across a script. */
function framing(subject: Subject, chunkIndex: number, totalChunks: number, targetWords: number) {
  const opener: string[] = [];
  const ending: string[] = [];
  const isFirst = chunkIndex === 0;
  const isLast = chunkIndex === totalChunks - 1;
  const brief = targetWords < 150;
  const { g } = subject;
  const topicClause = subject.topic ? subject.topic.charAt(0).toLowerCase() + subject.topic.slice(1) : keywordFor(subject, "topic");
  if (isFirst) {
    opener.push(brief ? g.welcomeBrief(subject.title) : g.welcome(subject.title, topicClause));
    if (!brief) opener.push(g.hook(keywordFor(subject, "hook")));
  }
  if (totalChunks > 1) {
    opener.push(g.part(chunkIndex + 1, totalChunks, angle(subject, (subject.offset + chunkIndex * 7) % g.angles.length, `h${chunkIndex}`)));
  }
  if (isLast) {
    ending.push(brief ? g.thanksBrief(keywordFor(subject, "end")) : g.thanks(subject.title, keywordFor(subject, "end")));
  } else {
    ending.push(g.next(chunkIndex + 1, angle(subject, (subject.offset + (chunkIndex + 1) * 7) % g.angles.length, `h${chunkIndex + 1}`)));
  }
  return { opener, ending };
}

/** Picks, among the next few unused numbers, the sentence whose length best fills `gap` words without overshooting much. */
function bestFit(make: (n: number) => string, from: number, count: number, used: Set<number>, gap: number) {
  let best: { n: number; text: string; words: number } | undefined;
  for (let n = from; n < from + count; n++) {
    if (used.has(n)) continue;
    const text = make(n);
    const words = countWords(text);
    if (words > gap + 2) continue;
    if (!best || Math.abs(gap - words) < Math.abs(gap - best.words)) best = { n, text, words };
  }
  return best;
}

/** Body sentences totalling about `words` words, numbered from the given ranges. */
function bodyOfLength(subject: Subject, words: number, bodyStart: number, bodyCount: number, shortStart: number, shortCount: number, avoid: Set<string>) {
  const sentences: string[] = [];
  const usedBody = new Set<number>();
  const usedShort = new Set<number>();
  let remaining = words;
  const accept = (text: string, n: number, used: Set<number>) => {
    used.add(n);
    if (avoid.has(text)) return;
    sentences.push(text);
    remaining -= countWords(text);
  };
  let n = bodyStart;
  while (remaining >= 36 && n < bodyStart + bodyCount) {
    accept(bodySentence(subject, n), n, usedBody);
    n++;
  }
  if (remaining >= 16) {
    const fit = bestFit((k) => bodySentence(subject, k), n, Math.min(60, bodyStart + bodyCount - n), usedBody, remaining);
    if (fit) accept(fit.text, fit.n, usedBody);
  }
  while (remaining >= 7) {
    const fit = bestFit((k) => shortSentence(subject, k), shortStart, shortCount, usedShort, remaining);
    if (!fit) break;
    accept(fit.text, fit.n, usedShort);
  }
  return sentences;
}

/** Paragraphs of four to six sentences, so the narration reads in beats. */
function paragraphs(sentences: string[], seed: string): string[] {
  const random = createRandom(seed);
  const out: string[] = [];
  for (let i = 0; i < sentences.length; ) {
    const size = 4 + Math.floor(random() * 3);
    out.push(sentences.slice(i, i + size).join(" "));
    i += size;
  }
  return out;
}

export function writeOfflineChunk(request: ScriptChunkRequest): string {
  const subject = subjectOf(request.title, request.topic, request.seed, request.language);
  const { opener, ending } = framing(subject, request.chunkIndex, request.totalChunks, request.targetWords);
  const fixedWords = countWords([...opener, ...ending].join(" "));
  // A very short script has no room for the framing: it is all body.
  const framed = fixedWords + 8 <= request.targetWords;
  const body = bodyOfLength(
    subject,
    request.targetWords - (framed ? fixedWords : 0),
    request.chunkIndex * BODY_PER_CHUNK,
    BODY_PER_CHUNK,
    (request.chunkIndex * SHORT_PER_CHUNK) % SHORT_SPACE,
    SHORT_PER_CHUNK,
    new Set(),
  );
  const sentences = framed ? [...opener, ...body, ...ending] : body;
  return paragraphs(sentences, `${subject.offset}:p:${request.chunkIndex}`).join("\n\n");
}

/** Lengthens a chunk to about targetWords by adding new sentences after it; never repeats one already there. */
export function expandOfflineChunk(request: ExpandChunkRequest): string {
  const current = request.text.trim();
  const missing = request.targetWords - countWords(current);
  if (missing <= 0) return current;
  const subject = subjectOf(request.title, request.topic, request.seed, request.language);
  const bucket = hashString(`${request.seed}\u0000${current}`) % EXPANSION_BUCKETS;
  const start = EXPANSION_BASE + bucket * EXPANSION_PER_BUCKET + (request.attempt % 4) * 100;
  const existing = new Set(splitSentences(current));
  const added = bodyOfLength(subject, missing, start, 100, (bucket * 7 + request.attempt * 13) % SHORT_SPACE, 40, existing);
  return [current, ...paragraphs(added, `${subject.offset}:e:${bucket}:${request.attempt}`)].filter(Boolean).join("\n\n");
}
