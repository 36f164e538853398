// Google Gemini as the text provider, through the official SDK (@google/genai). The SDK's requests go through our
// HTTP client (its `fetch` option), so timeouts, retries and error classification match the other adapters.
import { GoogleGenAI } from "@google/genai";
import { z } from "zod";
import { ProviderError } from "../errors";
import { createHttpClient, type CloudAdapterOptions } from "../http.server";
import type { TextProvider } from "../types";
import { countWords } from "./language";
import { languageOf, writeInLanguage } from "~/lib/languages";
import { proofreadText, splitVoiceover } from "./scenes";
import { isGeminiKeyError } from "../gemini-key-error";
import { imagePromptsPrompt, proofreadPrompt, scenesWithImagePrompts, uploadMetadataPrompt, withinUploadLimits, type PromptStyle } from "./model-prompts";

const PROVIDER = "Gemini";
/** Gemini's requests carry a JSON schema; it writes for YouTube. */
const STYLE: PromptStyle = { schema: true, video: "YouTube video" };

export type GeminiOptions = CloudAdapterOptions & { model: string };

/** Gemini answers a bad key with 400 INVALID_ARGUMENT / API_KEY_INVALID rather than 401. */

/** Narration only: markdown emphasis, headings, bullets and bracketed stage directions removed. */
export function cleanNarration(text: string): string {
  return text
    .replace(/^\s*#{1,6}\s.*$/gm, "")
    .replace(/^\s*(part|section|chapter)\s+\w+\s*[:.-].{0,60}$/gim, "")
    .replace(/^\s*[-*•]\s+/gm, "")
    .replace(/\*\*|__|\*/g, "")
    .replace(/^\s*\[[^\]]*\]\s*$/gm, "")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

export function createGeminiTextProvider(options: GeminiOptions): TextProvider {
  const http = createHttpClient({ provider: PROVIDER, policy: options.policy, call: options.call, isAuthFailure: isGeminiKeyError });
  const ai = new GoogleGenAI({
    apiKey: options.apiKey,
    httpOptions: { baseUrl: options.baseUrl, fetch: (input, init) => http.request(input, init) },
  });
  // Flash models think by default, and thinking spends the output budget: scripts need every token for words.
  const thinking = /flash/i.test(options.model) ? { thinkingConfig: { thinkingBudget: 0 } } : {};

  async function generate(prompt: string, maxOutputTokens: number, json?: { schema: unknown }): Promise<string> {
    let response;
    try {
      response = await ai.models.generateContent({
        model: options.model,
        contents: prompt,
        config: {
          maxOutputTokens,
          temperature: json ? 0.4 : 0.9,
          ...thinking,
          ...(json ? { responseMimeType: "application/json", responseJsonSchema: json.schema } : {}),
        },
      });
    } catch (error) {
      if (error instanceof ProviderError) throw error;
      throw new ProviderError(PROVIDER, "malformed", `${PROVIDER} sent an answer we could not read: ${(error as Error).message.slice(0, 200)}`);
    }
    const candidate = response.candidates?.[0];
    if (!candidate) {
      const blocked = response.promptFeedback?.blockReason;
      if (blocked) throw new ProviderError(PROVIDER, "rejected", `${PROVIDER} refused the prompt (${blocked}). Try rewording the title or topic.`);
      throw new ProviderError(PROVIDER, "malformed", `${PROVIDER} sent an answer with no candidates.`);
    }
    const text = response.text?.trim();
    if (!text) {
      const reason = candidate.finishReason ?? "unknown";
      throw new ProviderError(PROVIDER, reason === "SAFETY" ? "rejected" : "malformed", `${PROVIDER} returned no text (finish reason: ${reason}).`);
    }
    return text;
  }

  const budgetFor = (words: number) => Math.ceil(words * 2.2) + 256;

  function parseJson<T>(text: string, schema: z.ZodType<T>, what: string): T {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new ProviderError(PROVIDER, "malformed", `${PROVIDER} sent ${what} that is not JSON.`);
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success) {
      throw new ProviderError(PROVIDER, "malformed", `${PROVIDER} sent ${what} we could not read (${parsed.error.issues[0]?.message ?? "unexpected shape"}).`);
    }
    return parsed.data;
  }

  return {
    name: "Google Gemini",
    source: "cloud",

    async writeScriptChunk(r) {
      const first = r.chunkIndex === 0;
      const last = r.chunkIndex === r.totalChunks - 1;
      const prompt = [
        `You are writing the narration for a YouTube video titled "${r.title}" about: ${r.topic}.`,
        r.totalChunks > 1 ? `Write part ${r.chunkIndex + 1} of ${r.totalChunks} of the script, about ${r.targetWords} words.` : `Write the whole script, about ${r.targetWords} words.`,
        first ? "Open with a hook that tells viewers what they will learn." : "Continue from the previous part; do not greet the viewer again and do not summarise earlier parts.",
        last ? "End with a short conclusion and invite viewers to like and subscribe." : "Do not conclude the video in this part.",
        writeInLanguage(r.language, "Write the narration"),
        "Write only the words the narrator speaks, in plain paragraphs: no headings, no scene directions, no markdown, no lists.",
        "Every sentence must be new: never repeat a sentence used elsewhere in the script.",
        `(Variation: ${r.seed}/${r.chunkIndex})`,
      ].join("\n");
      return cleanNarration(await generate(prompt, budgetFor(r.targetWords)));
    },

    async expandScriptChunk(r) {
      const prompt = [
        `This is part of the narration for a YouTube video titled "${r.title}" about: ${r.topic}.`,
        `It has ${countWords(r.text)} words; rewrite it to about ${r.targetWords} words by adding concrete detail, examples and explanation.`,
        "Keep its meaning and order. Return only the full rewritten narration in plain paragraphs, no markdown, no headings.",
        writeInLanguage(r.language, "Write it"),
        "",
        r.text,
      ].join("\n");
      return cleanNarration(await generate(prompt, budgetFor(r.targetWords)));
    },

    async proofreadScript(r) {
      return proofreadText(cleanNarration(await generate(proofreadPrompt(r, STYLE), budgetFor(countWords(r.text)))), r.language);
    },

    async splitIntoScenes(r) {
      // The voiceover split is done here, exactly and in order; Gemini writes one image prompt per scene.
      const voiceovers = splitVoiceover(r.script, r.sceneCount);
      const schema = { type: "array", items: { type: "string" }, minItems: voiceovers.length, maxItems: voiceovers.length };
      const text = await generate(imagePromptsPrompt(r, voiceovers, STYLE), 200 * voiceovers.length + 256, { schema });
      return scenesWithImagePrompts(PROVIDER, voiceovers, parseJson(text, z.array(z.string().min(1)), "image prompts"));
    },

    async writeUploadMetadata(r) {
      const schema = {
        type: "object",
        properties: { description: { type: "string" }, tags: { type: "array", items: { type: "string" } } },
        required: ["description", "tags"],
      };
      const data = parseJson(await generate(uploadMetadataPrompt(r, STYLE), 2048, { schema }), z.object({ description: z.string().min(1), tags: z.array(z.string()) }), "upload metadata");
      return withinUploadLimits(data);
    },

    async pickShortMoments(r) {
      // issue 51, decision 246: Gemini reads the scenes and picks the runs; the caller checks each against the limit
      const prompt = [
        `The YouTube video "${r.title}" is narrated in ${r.scenes.length} scenes (numbered from 0, with their spoken seconds).`,
        `Pick up to ${r.count} moments to cut into YouTube Shorts: each a run of consecutive scenes, fromScene to toScene (both included),`,
        `whose seconds add up to at most ${Math.max(1, Math.floor(r.maxSeconds - 3.5))} seconds, that makes sense on its own and opens strongly; the runs must not overlap.`,
        `For each, write a hook: an opening line of at most 80 characters shown on the Short's first picture, and the reason in one short sentence.`,
        writeInLanguage(r.language, "Write the hooks and reasons"),
        `Answer with a JSON array of objects {"fromScene": number, "toScene": number, "hook": string, "reason": string}, best first.`,
        "",
        ...r.scenes.map((s) => `Scene ${s.index} (${s.seconds.toFixed(1)} s): ${s.text.replace(/\s+/g, " ").slice(0, 600)}`),
      ].join("\n");
      const schema = {
        type: "array",
        maxItems: r.count,
        items: {
          type: "object",
          properties: { fromScene: { type: "integer" }, toScene: { type: "integer" }, hook: { type: "string" }, reason: { type: "string" } },
          required: ["fromScene", "toScene", "hook", "reason"],
        },
      };
      const moment = z.object({ fromScene: z.number().int(), toScene: z.number().int(), hook: z.string(), reason: z.string() });
      return parseJson(await generate(prompt, 200 * r.count + 256, { schema }), z.array(moment), "Short moments");
    },

    async translateTexts(r) {
      const filled = r.texts.map((t) => t.replace(/\s+/g, " ").trim());
      const sent = filled.filter(Boolean);
      if (!sent.length) return filled;
      const to = languageOf(r.to);
      const from = languageOf(r.from);
      const prompt = [
        `Translate the ${sent.length} texts below from ${from.name} into ${to.name} (${to.nativeName}). They are the title and the narration of the YouTube video "${r.title}", to be spoken by a narrator.`,
        "Translate faithfully and naturally, keeping each text's meaning, tone and sentences; write numbers as a narrator would say them in that language.",
        `Answer with a JSON array of exactly ${sent.length} strings, the translations in the same order, nothing else.`,
        "",
        ...sent.map((t, i) => `Text ${i + 1}: ${t}`),
      ].join("\n");
      const schema = { type: "array", items: { type: "string" }, minItems: sent.length, maxItems: sent.length };
      const words = sent.reduce((n, t) => n + countWords(t), 0);
      const out = parseJson(await generate(prompt, Math.ceil(words * 3) + 256, { schema }), z.array(z.string()), "translations");
      if (out.length !== sent.length || out.some((t) => !t.trim())) {
        throw new ProviderError(PROVIDER, "malformed", `${PROVIDER} translated ${out.filter((t) => t.trim()).length} of ${sent.length} texts.`);
      }
      let next = 0;
      return filled.map((t) => (t ? cleanNarration(out[next++]!) : ""));
    },

    async suggestVideoIdeas(r) {
      const past = r.pastTitles.slice(0, 60);
      const prompt = [
        `Suggest ${r.count} ideas for the next videos of a YouTube channel about: "${r.channelTopic.slice(0, 500)}".`,
        past.length ? "Its videos so far (do not repeat or closely rephrase any of them):" : "The channel has no videos yet.",
        ...past.map((t) => `- ${t}`),
        "",
        `Answer with a JSON array of exactly ${r.count} objects {"title": string (a catchy video title, at most 90 characters), "topic": string (one or two sentences: what the video explains)}.`,
        writeInLanguage(r.language ?? "en", "Write the titles and topics"),
      ].join("\n");
      const schema = {
        type: "array",
        items: { type: "object", properties: { title: { type: "string" }, topic: { type: "string" } }, required: ["title", "topic"] },
        minItems: r.count,
        maxItems: r.count,
      };
      const ideas = parseJson(await generate(prompt, 120 * r.count + 256, { schema }), z.array(z.object({ title: z.string().min(1), topic: z.string() })), "video ideas");
      return ideas.slice(0, r.count).map((i) => ({ title: i.title.trim().slice(0, 200), topic: i.topic.trim().slice(0, 2000) }));
    },
  };
}
