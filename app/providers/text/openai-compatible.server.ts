// Any model served through the Chat Completions API (OpenAI, Ollama, LM Studio, vLLM, OpenRouter, llama.cpp's
// server...): POST {base}/chat/completions, streamed as server-sent events where the server streams, read whole
// where it does not. Errors carry the server's own message ({"error":{"message":...}}), with the key scrubbed.
// See docs/decisions/110-openai-compatible-text-provider.md. Every request goes through the outbound guard
// (decision 196): a server at a private, loopback or link-local address is refused unless `allowPrivateNetwork`
// (the operator's setting or the owner's account), checked as each connection is made, redirects included.
import { createParser } from "eventsource-parser";
import { z } from "zod";
import { normalizeBaseUrl } from "~/lib/openai-compatible";
import { checkOutboundUrl, createOutboundGuard, outboundRefusalIn, type OutboundGuard } from "~/lib/outbound-fetch.server";
import { scrubSecrets } from "~/lib/scrub";
import { ProviderError } from "../errors";
import type { ProviderCall } from "../call";
import { createHttpClient, joinUrl, type RequestPolicy } from "../http.server";
import type { TextProvider, TextStreamOptions } from "../types";
import { cleanNarration } from "./gemini.server";
import { writeInLanguage } from "~/lib/languages";
import { countWords } from "./language";
import { proofreadText, splitVoiceover } from "./scenes";
import { imagePromptsPrompt, proofreadPrompt, scenesWithImagePrompts, uploadMetadataPrompt, withinUploadLimits, type PromptStyle } from "./model-prompts";

/** A model server is asked for JSON in words only (no schema), and for any video. */
const STYLE: PromptStyle = { schema: false, video: "video" };

export const OPENAI_COMPATIBLE_PROVIDER = "The model server";

export type OpenAICompatibleOptions = {
  /** e.g. https://api.openai.com/v1, http://127.0.0.1:11434/v1 (Ollama), http://127.0.0.1:1234/v1 (LM Studio) */
  baseUrl: string;
  model: string;
  /** Optional: local servers (Ollama, LM Studio, vLLM without --api-key) need none. */
  apiKey?: string;
  /** The server may be at a private, loopback or link-local address (decision 196); refused otherwise. */
  allowPrivateNetwork?: boolean;
  /** The guard every request goes through; one made from `allowPrivateNetwork` unless given (tests inject one). */
  outbound?: OutboundGuard;
  policy?: Partial<RequestPolicy>;
  call?: ProviderCall;
};

export type ChatMessage = { role: "system" | "user" | "assistant"; content: string };

/** The parts of a Chat Completions request we vary; the rest is fixed. */
export type ChatRequestBody = {
  model: string;
  messages: ChatMessage[];
  stream: boolean;
  temperature?: number;
  max_tokens?: number;
  max_completion_tokens?: number;
  stream_options?: { include_usage: boolean };
};

const ChatCompletion = z.object({
  choices: z
    .array(z.object({ message: z.object({ content: z.string().nullable().optional() }).passthrough(), finish_reason: z.string().nullable().optional() }).passthrough())
    .min(1),
});
const ChatChunk = z.object({
  // vLLM ends with a usage-only chunk whose choices are null; OpenAI with include_usage sends an empty list
  choices: z
    .array(z.object({ delta: z.object({ content: z.string().nullable().optional() }).passthrough().nullable().optional(), finish_reason: z.string().nullable().optional() }).passthrough())
    .nullable()
    .optional(),
  error: z.unknown().optional(),
});
const ModelList = z.object({ data: z.array(z.object({ id: z.string() }).passthrough()) });

/** An `error` member of a stream event or a body: its message, or undefined. */
function errorMessageOf(error: unknown): string | undefined {
  if (typeof error === "string" && error.trim()) return error.trim();
  if (error && typeof error === "object") {
    const message = (error as { message?: unknown }).message;
    if (typeof message === "string" && message.trim()) return message.trim();
  }
  return undefined;
}

/**
 * Reads a Chat Completions SSE stream ("data: {json}" events, ended by "data: [DONE]" or the end of the body) into
 * the whole text, calling onText with the text so far after each delta. An error event ends it with a ProviderError.
 */
export async function readChatStream(
  body: AsyncIterable<Uint8Array | string>,
  options: { provider?: string; onText?: (textSoFar: string) => void } = {},
): Promise<{ text: string; finishReason?: string }> {
  const provider = options.provider ?? OPENAI_COMPATIBLE_PROVIDER;
  let text = "";
  let finishReason: string | undefined;
  let done = false;
  let failure: ProviderError | undefined;
  const parser = createParser({
    onEvent(event) {
      if (done || failure) return;
      const data = event.data.trim();
      if (data === "[DONE]") {
        done = true;
        return;
      }
      let json: unknown;
      try {
        json = JSON.parse(data);
      } catch {
        failure = new ProviderError(provider, "malformed", `${provider} sent a stream event that is not JSON: ${data.slice(0, 120)}`);
        return;
      }
      const parsed = ChatChunk.safeParse(json);
      if (!parsed.success) {
        failure = new ProviderError(provider, "malformed", `${provider} sent a stream event we could not read: ${data.slice(0, 120)}`);
        return;
      }
      const message = errorMessageOf(parsed.data.error);
      if (message) {
        // a server that breaks off (overloaded upstream, a dropped worker) may well answer the next try
        failure = new ProviderError(provider, "unavailable", `${provider} stopped with an error: ${message}`);
        return;
      }
      const choice = parsed.data.choices?.[0];
      const delta = choice?.delta?.content;
      if (delta) {
        text += delta;
        options.onText?.(text);
      }
      if (choice?.finish_reason) finishReason = choice.finish_reason;
    },
  });
  const decoder = new TextDecoder();
  for await (const chunk of body) {
    parser.feed(typeof chunk === "string" ? chunk : decoder.decode(chunk, { stream: true }));
    if (failure) throw failure;
    if (done) break;
  }
  parser.feed(decoder.decode());
  if (failure) throw failure;
  return { text, finishReason };
}

/** The first JSON array or object in a model's answer (models often wrap JSON in ``` fences or a sentence). */
export function extractJson(text: string, kind: "array" | "object"): unknown {
  const fenced = /```(?:json)?\s*([\s\S]*?)```/i.exec(text)?.[1] ?? text;
  const [open, close] = kind === "array" ? ["[", "]"] : ["{", "}"];
  const start = fenced.indexOf(open);
  const end = fenced.lastIndexOf(close);
  if (start < 0 || end <= start) throw new SyntaxError(`no JSON ${kind} in the answer`);
  return JSON.parse(fenced.slice(start, end + 1));
}

/** A request option the server refused by name ("Unsupported parameter: 'max_tokens'..."): what to change. */
type Adjustment = "no-stream" | "max-completion-tokens" | "no-temperature";
function adjustmentFor(error: ProviderError, body: ChatRequestBody): Adjustment | undefined {
  if (error.kind !== "rejected" || (error.status !== 400 && error.status !== 422)) return undefined;
  const m = error.message;
  if (body.max_tokens !== undefined && /max_tokens/.test(m) && /max_completion_tokens|unsupported|not supported/i.test(m)) return "max-completion-tokens";
  if (body.temperature !== undefined && /temperature/i.test(m)) return "no-temperature";
  if (body.stream && /stream/i.test(m)) return "no-stream";
  return undefined;
}

export function createOpenAICompatibleTextProvider(options: OpenAICompatibleOptions): TextProvider & {
  chat: (messages: ChatMessage[], settings: { maxTokens: number; temperature: number; onText?: (textSoFar: string) => void }) => Promise<string>;
  listModels: () => Promise<string[]>;
} {
  const provider = OPENAI_COMPATIBLE_PROVIDER;
  const baseUrl = normalizeBaseUrl(options.baseUrl);
  const apiKey = options.apiKey?.trim() || undefined;
  const http = createHttpClient({ provider, policy: options.policy, call: options.call, authDetail: true });
  const guard = options.outbound ?? createOutboundGuard({ allowPrivate: options.allowPrivateNetwork ?? false });
  /**
   * One request through the guard: the address checked first (refused at once), then every connection checked as
   * it is made, redirects included. A refusal at connection time reaches us as a network failure that may have
   * lost its cause on the way: the guard's own record says it was one, and the creator reads why in our words.
   */
  async function guarded<T>(url: string, work: (init: RequestInit) => Promise<T>): Promise<T> {
    try {
      await checkOutboundUrl(url, guard.policy);
    } catch (error) {
      throw refused(outboundRefusalIn(error) ?? (error as Error));
    }
    const refusalsBefore = guard.refusals();
    try {
      // Node's fetch takes undici's `dispatcher` beside the standard fields
      return await work({ dispatcher: guard.dispatcher } as RequestInit);
    } catch (error) {
      const refusal = outboundRefusalIn(error) ?? (guard.refusals() > refusalsBefore ? guard.lastRefusal() : undefined);
      if (refusal) throw refused(refusal);
      throw error;
    }
  }
  /** A refused address, never retried; the refusal kept as the cause so a caller can tell it from the server's own. */
  const refused = (why: Error) => Object.assign(new ProviderError(provider, "rejected", why.message), { cause: why });
  const headers = (): Record<string, string> => ({
    "content-type": "application/json",
    accept: "text/event-stream, application/json",
    ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}),
  });
  // What this server accepts, learned from its refusals and kept for the provider's life.
  const learned = { stream: true, maxCompletionTokens: false, temperature: true };

  /** Every error leaves with the key scrubbed, even one the server echoed in a shape no pattern knows. */
  const scrubbed = (error: unknown): unknown =>
    // a refused address (our own words, its cause kept) passes as it is
    error instanceof ProviderError && !outboundRefusalIn(error)
      ? new ProviderError(error.provider, error.kind, scrubSecrets(error.message, [apiKey]).replace("Settings (API Keys)", "Settings (OpenAI-Compatible Model)"), error.status)
      : error;

  async function chat(messages: ChatMessage[], settings: { maxTokens: number; temperature: number; onText?: (textSoFar: string) => void }): Promise<string> {
    for (let adjustments = 0; ; adjustments++) {
      const body: ChatRequestBody = {
        model: options.model,
        messages,
        stream: learned.stream,
        ...(learned.temperature ? { temperature: settings.temperature } : {}),
        ...(learned.maxCompletionTokens ? { max_completion_tokens: settings.maxTokens } : { max_tokens: settings.maxTokens }),
      };
      let response: Response;
      try {
        const url = joinUrl(baseUrl, "chat/completions");
        response = await guarded(url, (through) => http.request(url, { ...through, method: "POST", headers: headers(), body: JSON.stringify(body) }));
      } catch (error) {
        const adjustment = error instanceof ProviderError && adjustments < 3 ? adjustmentFor(error, body) : undefined;
        if (adjustment === "no-stream") learned.stream = false;
        else if (adjustment === "max-completion-tokens") learned.maxCompletionTokens = true;
        else if (adjustment === "no-temperature") learned.temperature = false;
        else throw scrubbed(error);
        continue;
      }
      try {
        const type = response.headers.get("content-type") ?? "";
        let text: string;
        let finishReason: string | undefined;
        if (type.includes("text/event-stream") && response.body) {
          ({ text, finishReason } = await readChatStream(response.body as unknown as AsyncIterable<Uint8Array>, { provider, onText: settings.onText }));
        } else {
          // A server that does not stream answers the whole completion as JSON: read it as such.
          const raw = await response.text();
          let json: unknown;
          try {
            json = JSON.parse(raw);
          } catch {
            throw new ProviderError(provider, "malformed", `${provider} sent an answer that is not JSON: ${raw.slice(0, 120)}`);
          }
          const message = errorMessageOf((json as { error?: unknown } | null)?.error);
          if (message) throw new ProviderError(provider, "rejected", `${provider} refused the request: ${message}`);
          const parsed = ChatCompletion.safeParse(json);
          if (!parsed.success) throw new ProviderError(provider, "malformed", `${provider} sent an answer with no choices: ${raw.slice(0, 120)}`);
          text = parsed.data.choices[0]!.message.content ?? "";
          finishReason = parsed.data.choices[0]!.finish_reason ?? undefined;
          if (text) settings.onText?.(text);
        }
        const trimmed = text.replace(/<think>[\s\S]*?<\/think>/g, "").trim();
        if (!trimmed) {
          throw new ProviderError(provider, finishReason === "content_filter" ? "rejected" : "malformed", `${provider} returned no text (finish reason: ${finishReason ?? "unknown"}).`);
        }
        return trimmed;
      } catch (error) {
        throw scrubbed(error);
      }
    }
  }

  const system: ChatMessage = {
    role: "system",
    content: "You write narration for online videos. Follow the instructions exactly and answer with only what is asked: no preamble, no markdown.",
  };
  const ask = (prompt: string, maxTokens: number, temperature: number, onText?: (textSoFar: string) => void) =>
    chat([system, { role: "user", content: prompt }], { maxTokens, temperature, onText });
  const budgetFor = (words: number) => Math.ceil(words * 2.2) + 256;

  function parseJson<T>(text: string, kind: "array" | "object", schema: z.ZodType<T>, what: string): T {
    let json: unknown;
    try {
      json = extractJson(text, kind);
    } catch {
      throw new ProviderError(provider, "malformed", `${provider} sent ${what} that is not JSON: ${text.slice(0, 120)}`);
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success) {
      throw new ProviderError(provider, "malformed", `${provider} sent ${what} we could not read (${parsed.error.issues[0]?.message ?? "unexpected shape"}).`);
    }
    return parsed.data;
  }

  const streaming = (stream?: TextStreamOptions) => (stream?.onWords ? (text: string) => stream.onWords!(countWords(cleanNarration(text))) : undefined);

  return {
    name: `${options.model} (OpenAI-compatible)`,
    source: "cloud",
    chat,

    async listModels() {
      try {
        const url = joinUrl(baseUrl, "models");
        const list = await http.readJson(await guarded(url, (through) => http.text(url, { ...through, headers: headers() })), ModelList, "a model list");
        return list.data.map((m) => m.id).sort((a, b) => a.localeCompare(b));
      } catch (error) {
        throw scrubbed(error);
      }
    },

    async writeScriptChunk(r, stream) {
      const first = r.chunkIndex === 0;
      const last = r.chunkIndex === r.totalChunks - 1;
      const prompt = [
        `You are writing the narration for a video titled "${r.title}" about: ${r.topic}.`,
        r.totalChunks > 1 ? `Write part ${r.chunkIndex + 1} of ${r.totalChunks} of the script, about ${r.targetWords} words.` : `Write the whole script, about ${r.targetWords} words.`,
        `The narration is timed: stay close to ${r.targetWords} words, not many more and not many fewer.`,
        first ? "Open with a hook that tells viewers what they will learn." : "Continue from the previous part; do not greet the viewer again and do not summarise earlier parts.",
        last ? "End with a short conclusion and invite viewers to like and subscribe." : "Do not conclude the video in this part.",
        writeInLanguage(r.language, "Write the narration"),
        "Write only the words the narrator speaks, in plain paragraphs of complete sentences: no headings, no scene directions, no markdown, no lists.",
        "Every sentence must be new: never repeat a sentence used elsewhere in the script.",
      ].join("\n");
      return cleanNarration(await ask(prompt, budgetFor(r.targetWords), 0.9, streaming(stream)));
    },

    async expandScriptChunk(r, stream) {
      const prompt = [
        `This is part of the narration for a video titled "${r.title}" about: ${r.topic}.`,
        `It has ${countWords(r.text)} words; rewrite it to about ${r.targetWords} words by adding concrete detail, examples and explanation.`,
        "Keep its meaning and order. Return only the full rewritten narration in plain paragraphs, no markdown, no headings.",
        writeInLanguage(r.language, "Write it"),
        "",
        r.text,
      ].join("\n");
      return cleanNarration(await ask(prompt, budgetFor(r.targetWords), 0.9, streaming(stream)));
    },

    async proofreadScript(r) {
      const corrected = proofreadText(cleanNarration(await ask(proofreadPrompt(r, STYLE), budgetFor(countWords(r.text)), 0.2)), r.language);
      // A model that answers with a fraction of the script (or a remark about it) has not proofread it: keep ours.
      return countWords(corrected) >= countWords(r.text) * 0.8 ? corrected : proofreadText(r.text, r.language);
    },

    async splitIntoScenes(r) {
      // The voiceover split is done here, exactly and in order; the model writes one image prompt per scene.
      const voiceovers = splitVoiceover(r.script, r.sceneCount);
      const text = await ask(imagePromptsPrompt(r, voiceovers, STYLE), 200 * voiceovers.length + 256, 0.4);
      return scenesWithImagePrompts(provider, voiceovers, parseJson(text, "array", z.array(z.string().min(1)), "image prompts"));
    },

    async writeUploadMetadata(r) {
      const data = parseJson(await ask(uploadMetadataPrompt(r, STYLE), 2048, 0.4), "object", z.object({ description: z.string().min(1), tags: z.array(z.string()) }), "upload metadata");
      return withinUploadLimits(data);
    },
  };
}
