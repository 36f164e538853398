// Splitting a script into scenes, proofreading, and upload metadata: the parts every text provider shares.
import { UPLOAD_LIMITS } from "~/lib/constants";
import type { ScenePlan, UploadMetadata } from "../types";
import { createRandom, pick } from "../seed";
import { countWords, keywordsOf, splitSentences, tidySentence } from "./language";

/**
 * The script's text cut into exactly `sceneCount` contiguous parts of similar length, in order, covering it all.
 * Sentence boundaries are kept where possible; long sentences are cut between words when there are more
 * scenes than sentences.
 */
export function splitVoiceover(script: string, sceneCount: number): string[] {
  if (!Number.isInteger(sceneCount) || sceneCount < 1) throw new Error(`A storyboard needs at least one scene, got ${sceneCount}.`);
  const units = splitSentences(script).map((s) => s.split(/\s+/));
  const totalWords = units.reduce((sum, u) => sum + u.length, 0);
  if (totalWords < sceneCount) {
    throw new Error(`The script has ${totalWords} word(s), too few for ${sceneCount} scenes. Write a longer script or use fewer scenes.`);
  }
  while (units.length < sceneCount) {
    let longest = 0;
    units.forEach((u, i) => {
      if (u.length > units[longest]!.length) longest = i;
    });
    const unit = units[longest]!;
    const half = Math.ceil(unit.length / 2);
    units.splice(longest, 1, unit.slice(0, half), unit.slice(half));
  }
  // Cut where the running word count passes each scene's share, leaving at least one unit per remaining scene.
  const scenes: string[] = [];
  let start = 0;
  let running = 0;
  for (let scene = 1; scene < sceneCount; scene++) {
    const goal = (totalWords * scene) / sceneCount;
    let end = start + 1;
    running += units[start]!.length;
    while (end < units.length - (sceneCount - scene) && running + units[end]!.length / 2 <= goal) {
      running += units[end]!.length;
      end++;
    }
    scenes.push(units.slice(start, end).map((u) => u.join(" ")).join(" "));
    start = end;
  }
  scenes.push(units.slice(start).map((u) => u.join(" ")).join(" "));
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
export function offlineImagePrompt(voiceover: string, title: string, aspect: string, seed: string, index: number): string {
  const words = keywordsOf(voiceover, 4);
  const subject = words.length ? words.join(", ") : keywordsOf(title, 3).join(", ") || title;
  const style = pick(createRandom(`${seed}:img:${index}`), IMAGE_STYLES);
  const framing = aspect === "16:9" ? "wide 16:9 frame" : "vertical 9:16 frame";
  return `${subject} — scene ${index + 1} of "${title}", ${style}, ${framing}`;
}

export function offlineScenes(script: string, title: string, aspect: string, sceneCount: number, seed: string): ScenePlan[] {
  return splitVoiceover(script, sceneCount).map((voiceoverText, i) => ({
    voiceoverText,
    imagePrompt: offlineImagePrompt(voiceoverText, title, aspect, seed, i),
  }));
}

/** Tidies whitespace and punctuation, and drops any sentence already said earlier in the script. */
export function proofreadText(text: string): string {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const paragraph of text.split(/\n\s*\n/)) {
    const kept: string[] = [];
    for (const raw of splitSentences(paragraph)) {
      const sentence = tidySentence(raw);
      const key = sentence.toLowerCase();
      if (!sentence || seen.has(key)) continue;
      seen.add(key);
      kept.push(sentence);
    }
    if (kept.length) out.push(kept.join(" "));
  }
  return out.join("\n\n");
}

/** A description (the opening of the script, the key subjects, hashtags) and tags within YouTube's limits. */
export function offlineUploadMetadata(title: string, script: string): UploadMetadata {
  const sentences = splitSentences(script);
  let intro = "";
  for (const s of sentences) {
    if (countWords(intro) >= 60) break;
    intro = intro ? `${intro} ${s}` : s;
  }
  const keywords = keywordsOf(`${title} ${title} ${script}`, 12);
  const hashtags = keywords.slice(0, 3).map((k) => `#${k.replace(/[^\p{L}\p{N}]/gu, "")}`);
  const description = [
    intro || title,
    keywords.length ? `In this video: ${keywords.slice(0, 6).join(", ")}.` : "",
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
