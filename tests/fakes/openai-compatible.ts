// A local fake of a Chat Completions server (OpenAI, Ollama, LM Studio, vLLM, OpenRouter all speak it), under /v1.
// Shapes from the API reference (found with the docs search):
//   POST /v1/chat/completions {model, messages[{role, content}], stream, temperature, max_tokens | max_completion_tokens}
//     -> {id, object: "chat.completion", created, model, choices[{index, message{role, content}, finish_reason}], usage}
//     with stream: true -> text/event-stream of `data: {id, object: "chat.completion.chunk", created, model,
//     choices[{index, delta{role?, content?}, finish_reason}]}` events, the last one `data: [DONE]`
//   GET /v1/models -> {object: "list", data[{id, object: "model", created, owned_by}]}
//   errors -> {"error": {"message", "type", "param", "code"}} with a 4xx/5xx status (401 invalid_api_key for a bad key)
// The key travels as `Authorization: Bearer <key>`; a fake made with key "" needs none (like Ollama or LM Studio).
import { FakeApi, type FakeRequest, type FakeResponse, type Route } from "./fake-api";

type ChatBody = {
  model?: string;
  messages?: { role?: string; content?: string }[];
  stream?: boolean;
  max_tokens?: number;
  max_completion_tokens?: number;
  temperature?: number;
};

export type FakeChatMode = {
  /** false: the server ignores `stream` and always answers one JSON completion (some local servers do). */
  streams: boolean;
  /** Milliseconds between streamed events, so progress can be watched. */
  eventDelayMs: number;
  /** Words per streamed event. */
  wordsPerEvent: number;
  /** Every chat request fails with this status and message (the OpenAI error body). */
  failWith?: { status: number; message: string; type?: string; code?: string | null };
  /** The stream starts, then sends an error event instead of finishing (OpenRouter does this mid-stream). */
  errorMidStream?: string;
  /** Refuses `max_tokens` like OpenAI's reasoning models, asking for `max_completion_tokens`. */
  refusesMaxTokens: boolean;
  /** Script chunks come out at this share of the words asked for (1 = exactly). */
  lengthRatio: number;
};

const DEFAULT_MODE: FakeChatMode = { streams: true, eventDelayMs: 0, wordsPerEvent: 4, refusesMaxTokens: false, lengthRatio: 1 };

const SENTENCES = [
  "Tides are the slow breathing of the sea, pulled by the moon and the sun.",
  "Twice a day the water climbs the shore and twice a day it slips away again.",
  "The moon's gravity tugs hardest on the ocean that faces it, raising a bulge of water.",
  "On the far side of the planet a second bulge forms, because the earth itself is pulled away from that water.",
  "As the earth turns, every coast passes through both bulges, which is why most places see two high tides.",
  "When the sun and moon line up, their pulls add together and the tides grow larger.",
  "Sailors, fishers and surfers have read these rhythms for thousands of years.",
  "Harbours are dredged and bridges are built with the highest tides of the year in mind.",
];

export class FakeOpenAICompatible extends FakeApi {
  mode: FakeChatMode = { ...DEFAULT_MODE };
  /** Every chat request body received, in order. */
  readonly chats: ChatBody[] = [];
  readonly models = ["llama3.2", "qwen2.5:7b", "gpt-4o-mini"];

  constructor(apiKey = "") {
    super(apiKey);
  }

  /** The base URL a creator would type: the server's address plus /v1. */
  get baseUrl(): string {
    return `${this.url}/v1`;
  }

  setMode(mode: Partial<FakeChatMode>): this {
    this.mode = { ...DEFAULT_MODE, ...mode };
    return this;
  }

  protected keyOf(req: FakeRequest) {
    const header = req.headers.authorization;
    if (!header) return "";
    return /^Bearer (.+)$/.exec(header)?.[1] ?? "";
  }

  protected rejectedKey(): FakeResponse {
    return {
      status: 401,
      json: {
        error: {
          message: "Incorrect API key provided. You can find your API key at https://platform.openai.com/account/api-keys.",
          type: "invalid_request_error",
          param: null,
          code: "invalid_api_key",
        },
      },
    };
  }

  protected routes(): Route[] {
    return [
      { method: "POST", pattern: /^\/v1\/chat\/completions$/, handle: (req) => this.chat(req) },
      {
        method: "GET",
        pattern: /^\/v1\/models$/,
        handle: () => ({ json: { object: "list", data: this.models.map((id) => ({ id, object: "model", created: 1_700_000_000, owned_by: "library" })) } }),
      },
    ];
  }

  private error(status: number, message: string, type = "invalid_request_error", code: string | null = null): FakeResponse {
    return { status, json: { error: { message, type, param: null, code } } };
  }

  private chat(req: FakeRequest): FakeResponse {
    const body = req.json() as ChatBody;
    this.chats.push(body);
    const mode = this.mode;
    if (mode.failWith) return this.error(mode.failWith.status, mode.failWith.message, mode.failWith.type, mode.failWith.code ?? null);
    if (!body.model) return this.error(400, "you must provide a model parameter");
    if (!this.models.includes(body.model)) return this.error(404, `model "${body.model}" not found, try pulling it first`, "api_error");
    if (!Array.isArray(body.messages) || body.messages.length === 0) return this.error(400, "'messages' is a required property");
    if (mode.refusesMaxTokens && body.max_tokens !== undefined) {
      return this.error(400, "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.", "invalid_request_error", "unsupported_parameter");
    }
    const prompt = body.messages.map((m) => m.content ?? "").join("\n");
    const content = this.replyTo(prompt);
    const id = `chatcmpl-${this.chats.length}`;
    const created = Math.floor(Date.now() / 1000);
    if (!body.stream || !mode.streams) {
      return {
        json: {
          id,
          object: "chat.completion",
          created,
          model: body.model,
          choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
          usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
        },
      };
    }
    const event = (delta: Record<string, string>, finish: string | null) =>
      `data: ${JSON.stringify({ id, object: "chat.completion.chunk", created, model: body.model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
    const words = content.split(/(?<=\s)/);
    const chunks = [event({ role: "assistant", content: "" }, null)];
    for (let i = 0; i < words.length; i += mode.wordsPerEvent) chunks.push(event({ content: words.slice(i, i + mode.wordsPerEvent).join("") }, null));
    if (mode.errorMidStream) {
      chunks.splice(Math.max(2, Math.floor(chunks.length / 2)));
      chunks.push(`data: ${JSON.stringify({ error: { message: mode.errorMidStream, code: 502 } })}\n\n`);
    } else {
      chunks.push(event({}, "stop"), "data: [DONE]\n\n");
    }
    return { stream: { chunks, delayMs: mode.eventDelayMs } };
  }

  /** What a model would say to each of Reelsmith's prompts. */
  private replyTo(prompt: string): string {
    const scenes = /JSON array of exactly (\d+) strings/.exec(prompt);
    if (scenes) {
      const prompts = Array.from({ length: Number(scenes[1]) }, (_, i) => `A moonlit coastline at high tide for scene ${i + 1}, soft blue light`);
      return `Here are the prompts:\n\`\`\`json\n${JSON.stringify(prompts, null, 2)}\n\`\`\``;
    }
    if (/Answer with only JSON: \{"description"/.test(prompt)) {
      return JSON.stringify({ description: "Why the sea rises and falls twice a day.\n\n#tides #ocean #moon", tags: ["tides", "ocean", "moon", "science"] });
    }
    if (/^Proofread the narration script/m.test(prompt)) {
      return prompt.split(/\n\n/).slice(1).join("\n\n").trim();
    }
    const asked = Number(/about (\d+) words/.exec(prompt)?.[1] ?? 60);
    const goal = Math.max(8, Math.round(asked * this.mode.lengthRatio));
    const out: string[] = [];
    for (let n = 0, i = 0; n < goal; i++) {
      const sentence = `${SENTENCES[i % SENTENCES.length]!.replace(/\.$/, "")}${i >= SENTENCES.length ? `, as chapter ${Math.floor(i / SENTENCES.length) + 1} of ${this.chats.length} shows` : ""}.`;
      out.push(sentence);
      n += sentence.split(/\s+/).length;
    }
    return out.join(" ");
  }
}
