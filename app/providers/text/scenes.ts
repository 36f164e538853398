// Splitting a script into scenes, proofreading, and upload metadata: the parts every text provider shares.
import { UPLOAD_LIMITS } from "~/lib/constants";
import type { ScenePlan, UploadMetadata } from "../types";
import { createRandom, pick } from "../seed";
import { countWords, keywordsOf, splitSentences, tidySentence } from "./language";
import { frenchKeywords } from "./offline-french";
import { spanishKeywords } from "./offline-spanish";
import { pictureWordsOf } from "./picture-glossary";

/** Where a long sentence may be cut: after a comma, semicolon, colon or dash that is followed by more words. */
const CLAUSE_BREAK = /[,;:—–](?=\s)/g;

/**
 * A sentence cut in two at the clause break nearest its middle, each part at least 3 words; undefined when it has
 * no such break (it is then never cut: a scene never ends inside a clause).
 */
export function splitAtClause(sentence: string): [string, string] | undefined {
  const words = countWords(sentence);
  let best: { at: number; distance: number } | undefined;
  for (const match of sentence.matchAll(CLAUSE_BREAK)) {
    const at = match.index! + 1;
    const before = countWords(sentence.slice(0, at));
    if (before < 3 || words - before < 3) continue;
    const distance = Math.abs(before - words / 2);
    if (!best || distance < best.distance) best = { at, distance };
  }
  return best ? [sentence.slice(0, best.at).trim(), sentence.slice(best.at).trim()] : undefined;
}

/** A sentence at least this long (and over two scenes' share of the words) is cut at a clause rather than shown whole. */
export const LONG_SENTENCE_WORDS = 30;

/**
 * The script's text cut into at most `sceneCount` contiguous parts of similar length, in order, covering it all.
 * Scenes end where sentences end: a script with fewer sentences than scenes gets fewer (longer) scenes. Only a
 * sentence longer than two scenes' share of the words and LONG_SENTENCE_WORDS is cut, at a clause (after a comma,
 * semicolon, colon or dash), so no single picture stays on screen for ever; and a script of a single sentence is
 * cut at its clauses into the planned scenes, so a short video is not one picture. Nothing is ever cut inside a
 * clause.
 */
export function splitVoiceover(script: string, sceneCount: number): string[] {
  if (!Number.isInteger(sceneCount) || sceneCount < 1) throw new Error(`A storyboard needs at least one scene, got ${sceneCount}.`);
  const sentences = splitSentences(script);
  if (sentences.length === 0) throw new Error("The script has no words to split into scenes. Write a script first.");
  const share = countWords(script) / sceneCount;
  const units: string[] = [];
  const cut = (sentence: string) => {
    const parts = countWords(sentence) > Math.max(LONG_SENTENCE_WORDS, 2 * share) ? splitAtClause(sentence) : undefined;
    if (parts) parts.forEach(cut);
    else units.push(sentence);
  };
  sentences.forEach(cut);
  // A script that is one sentence (a very short video) would be one picture: that sentence is cut at its clauses,
  // the longest piece first, into as many scenes as planned (or as it has clauses).
  while (sentences.length === 1 && units.length < sceneCount) {
    const longestFirst = units.map((_, i) => i).sort((a, b) => countWords(units[b]!) - countWords(units[a]!));
    const at = longestFirst.find((i) => splitAtClause(units[i]!));
    if (at === undefined) break;
    units.splice(at, 1, ...splitAtClause(units[at]!)!);
  }
  const count = Math.min(sceneCount, units.length);
  const lengths = units.map((u) => countWords(u));
  const totalWords = lengths.reduce((sum, n) => sum + n, 0);
  // Cut where the running word count passes each scene's share, leaving at least one unit per remaining scene.
  const scenes: string[] = [];
  let start = 0;
  let running = 0;
  for (let scene = 1; scene < count; scene++) {
    const goal = (totalWords * scene) / count;
    let end = start + 1;
    running += lengths[start]!;
    while (end < units.length - (count - scene) && running + lengths[end]! / 2 <= goal) {
      running += lengths[end]!;
      end++;
    }
    scenes.push(units.slice(start, end).join(" "));
    start = end;
  }
  scenes.push(units.slice(start).join(" "));
  return scenes;
}

const IMAGE_STYLES = [
  "cinematic photograph, soft natural light",
  "detailed digital painting, warm tones",
  "clean minimalist illustration",
  "documentary-style photo, shallow depth of field",
  "watercolor illustration, gentle textures",
  "wide establishing shot, golden hour",
];

/** An image prompt for a scene, from its own words and the video's title. */
export function offlineImagePrompt(voiceover: string, title: string, aspect: string, seed: string, index: number, language?: string): string {
  // a French or Spanish scene's nouns in English: image prompts stay English (decision 090)
  const translated = pictureWordsOf(voiceover, language, title);
  const words = translated.length ? translated : keywordsOf(voiceover, 4);
  const subject = words.length ? words.join(", ") : keywordsOf(title, 3).join(", ") || title;
  const style = pick(createRandom(`${seed}:img:${index}`), IMAGE_STYLES);
  const framing = aspect === "16:9" ? "wide 16:9 frame" : "vertical 9:16 frame";
  return `${subject} — scene ${index + 1} of "${title}", ${style}, ${framing}`;
}

export function offlineScenes(script: string, title: string, aspect: string, sceneCount: number, seed: string, language?: string): ScenePlan[] {
  return splitVoiceover(script, sceneCount).map((voiceoverText, i) => ({
    voiceoverText,
    imagePrompt: offlineImagePrompt(voiceoverText, title, aspect, seed, i, language),
  }));
}

/** French sets a space before ; : ! and ? (the tidy-up removes it, as English wants). */
const frenchSpacing = (sentence: string) => sentence.replace(/\s*([;:!?])(?=\s|$)/g, " $1");

/** Tidies whitespace and punctuation, and drops any sentence already said earlier in the script. */
export function proofreadText(text: string, language?: string): string {
  const french = !!language?.toLowerCase().startsWith("fr");
  const seen = new Set<string>();
  const out: string[] = [];
  for (const paragraph of text.split(/\n\s*\n/)) {
    const kept: string[] = [];
    for (const raw of splitSentences(paragraph)) {
      const sentence = french ? frenchSpacing(tidySentence(raw)) : tidySentence(raw);
      const key = sentence.toLowerCase();
      if (!sentence || seen.has(key)) continue;
      seen.add(key);
      kept.push(sentence);
    }
    if (kept.length) out.push(kept.join(" "));
  }
  return out.join("\n\n");
}

/** The key subjects of a text, bare words: French and Spanish ones without their article for such a project. */
function subjectsOf(text: string, limit: number, language?: string): string[] {
  const code = language?.toLowerCase().slice(0, 2);
  if (code === "fr") return frenchKeywords(text, limit).map((k) => k.replace(/^(?:les?\s|la\s|l['’])/i, ""));
  if (code === "es") return spanishKeywords(text, limit).map((k) => k.replace(/^(?:el|la|los|las)\s/i, ""));
  return keywordsOf(text, limit);
}

/** "In this video:" in the project's language (the offline writer's languages). */
const IN_THIS_VIDEO: Record<string, string> = { fr: "Dans cette vidéo :", es: "En este vídeo:" };

/** A description (the opening of the script, the key subjects, hashtags) and tags within YouTube's limits, in the project's language. */
export function offlineUploadMetadata(title: string, script: string, language?: string): UploadMetadata {
  const sentences = splitSentences(script);
  let intro = "";
  for (const s of sentences) {
    if (countWords(intro) >= 60) break;
    intro = intro ? `${intro} ${s}` : s;
  }
  const keywords = subjectsOf(`${title} ${title} ${script}`, 12, language);
  const inThisVideo = IN_THIS_VIDEO[language?.toLowerCase().slice(0, 2) ?? ""] ?? "In this video:";
  const hashtags = keywords.slice(0, 3).map((k) => `#${k.replace(/[^\p{L}\p{N}]/gu, "")}`);
  const description = [
    intro || title,
    keywords.length ? `${inThisVideo} ${keywords.slice(0, 6).join(", ")}.` : "",
    hashtags.join(" "),
  ]
    .filter(Boolean)
    .join("\n\n")
    .slice(0, UPLOAD_LIMITS.descriptionChars);
  const tags: string[] = [];
  const candidates = [title.toLowerCase().replace(/[^\p{L}\p{N}\s]/gu, "").trim(), ...keywords];
  for (const tag of candidates) {
    if (!tag || tags.includes(tag)) continue;
    if ([...tags, tag].join(",").length > UPLOAD_LIMITS.tagsChars) break;
    tags.push(tag);
  }
  return { description, tags };
}
