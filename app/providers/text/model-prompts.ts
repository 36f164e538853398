// What a text model is asked, and how its answers become scenes and upload metadata: one wording for Gemini and for
// an OpenAI-compatible model server, so the two ask the same things. They differ in two ways, kept as they were:
// Gemini's requests carry a JSON schema (the prompt says "Answer with JSON"; a model server is told "Answer with
// only JSON"), and Gemini writes for YouTube (a model server's video is "the video").
import { UPLOAD_LIMITS } from "~/lib/constants";
import { writeInLanguage } from "~/lib/languages";
import { ProviderError } from "../errors";
import type { TextProvider } from "../types";

export type PromptStyle = {
  /** the request enforces a JSON schema (Gemini): the prompt need not insist on JSON alone */
  schema: boolean;
  /** how the prompt names the video: "YouTube video" (Gemini) or "video" */
  video: string;
};

const answerWith = (style: PromptStyle) => (style.schema ? "Answer with" : "Answer with only");

/** Proofreading a script: the same length, language and paragraphs, with repeated sentences taken out. */
export function proofreadPrompt(r: { title: string; text: string }, style: PromptStyle): string {
  return [
    `Proofread the narration script below for the ${style.video} "${r.title}".`,
    "Fix grammar, spelling and punctuation, and remove any sentence that repeats an earlier one word for word.",
    "Keep everything else as it is, including its length, language and paragraphs. Return only the corrected script, no commentary, no markdown.",
    "",
    r.text,
  ].join("\n");
}

/** One image prompt per scene, for the voiceovers already split from the script (in English, whatever its language). */
export function imagePromptsPrompt(r: { title: string; resolution: string }, voiceovers: readonly string[], style: PromptStyle): string {
  const frame = r.resolution === "16:9" ? "a wide 16:9 frame" : "a vertical 9:16 frame";
  return [
    `A ${style.video} titled "${r.title}" is narrated in ${voiceovers.length} scenes. For each scene, write one image-generation prompt`,
    `(one or two sentences: subject, setting, lighting, style) for ${frame} that illustrates what the narrator says, with no text in the image.`,
    `${answerWith(style)} a JSON array of exactly ${voiceovers.length} strings, in scene order. Write the image prompts in English, whatever the narration's language.`,
    "",
    ...voiceovers.map((v, i) => `Scene ${i + 1}: ${v}`),
  ].join("\n");
}

/** The scenes: each voiceover with its image prompt; a model that wrote another number of prompts is refused. */
export function scenesWithImagePrompts(provider: string, voiceovers: readonly string[], prompts: readonly string[]): Awaited<ReturnType<TextProvider["splitIntoScenes"]>> {
  if (prompts.length !== voiceovers.length) {
    throw new ProviderError(provider, "malformed", `${provider} wrote ${prompts.length} image prompts for ${voiceovers.length} scenes.`);
  }
  return voiceovers.map((voiceoverText, i) => ({ voiceoverText, imagePrompt: prompts[i]!.trim() }));
}

/** YouTube's description and tags for a video, from the first 1,500 words of its script. */
export function uploadMetadataPrompt(r: { title: string; script: string; language?: string }, style: PromptStyle): string {
  const excerpt = r.script.split(/\s+/).slice(0, 1500).join(" ");
  return [
    `Write YouTube upload metadata for the video "${r.title}". Its script begins:`,
    excerpt,
    "",
    `${answerWith(style)} JSON: {"description": string (at most ${UPLOAD_LIMITS.descriptionChars} characters, a few short paragraphs and 3 hashtags),`,
    `"tags": string[] (10 to 20 search tags, all together at most ${UPLOAD_LIMITS.tagsChars} characters)}.`,
    writeInLanguage(r.language, "Write the description and tags"),
  ].join("\n");
}

/** The model's metadata within YouTube's limits: the description cut to length, tags trimmed, unique, and as many as fit. */
export function withinUploadLimits(data: { description: string; tags: readonly string[] }): { description: string; tags: string[] } {
  const tags: string[] = [];
  for (const tag of data.tags.map((t) => t.trim()).filter(Boolean)) {
    if ([...tags, tag].join(",").length > UPLOAD_LIMITS.tagsChars) break;
    if (!tags.includes(tag)) tags.push(tag);
  }
  return { description: data.description.trim().slice(0, UPLOAD_LIMITS.descriptionChars), tags };
}
