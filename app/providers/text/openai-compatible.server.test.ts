// The OpenAI-compatible text provider: its SSE reading, the requests it sends, and how it reads a server's errors
// (against the local Chat Completions fake, tests/fakes/openai-compatible.ts).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { normalizeBaseUrl } from "~/lib/openai-compatible";
import { FakeOpenAICompatible } from "../../../tests/fakes/openai-compatible";
import { ProviderError } from "../errors";
import { countWords } from "./language";
import { createOpenAICompatibleTextProvider, extractJson, readChatStream } from "./openai-compatible.server";

async function* pieces(...parts: string[]) {
  for (const part of parts) yield new TextEncoder().encode(part);
}
const chunk = (content: string, finish: string | null = null) =>
  `data: ${JSON.stringify({ id: "c1", object: "chat.completion.chunk", created: 1, model: "m", choices: [{ index: 0, delta: { content }, finish_reason: finish }] })}\n\n`;

describe("readChatStream", () => {
  it("joins the deltas in order, across events split anywhere, and stops at [DONE]", async () => {
    const whole = chunk("Tides ") + chunk("rise ") + ": a comment line\n\n" + chunk("twice.", "stop") + "data: [DONE]\n\n" + chunk(" never read");
    const seen: string[] = [];
    // cut into 7-byte pieces: events and even JSON arrive in halves
    const parts = whole.match(/[\s\S]{1,7}/g)!;
    const result = await readChatStream(pieces(...parts), { onText: (t) => seen.push(t) });
    expect(result).toEqual({ text: "Tides rise twice.", finishReason: "stop" });
    expect(seen).toEqual(["Tides ", "Tides rise ", "Tides rise twice."]);
  });

  it("reads CRLF line ends, a role-only first delta, a usage chunk with null choices and a stream without [DONE]", async () => {
    const role = `data: ${JSON.stringify({ choices: [{ index: 0, delta: { role: "assistant" }, finish_reason: null }] })}\r\n\r\n`;
    const usage = `data: ${JSON.stringify({ choices: null, usage: { total_tokens: 3 } })}\r\n\r\n`;
    const result = await readChatStream(pieces(role, chunk("Hello").replace(/\n/g, "\r\n"), usage));
    expect(result.text).toBe("Hello");
  });

  it("ends with the server's own message when an error event arrives mid-stream", async () => {
    const error = `data: ${JSON.stringify({ error: { message: "Upstream provider overloaded", code: 502 } })}\n\n`;
    await expect(readChatStream(pieces(chunk("Half a"), error))).rejects.toThrow(/stopped with an error: Upstream provider overloaded/);
  });

  it("refuses an event that is not JSON", async () => {
    await expect(readChatStream(pieces("data: {oops\n\n"))).rejects.toMatchObject({ name: "ProviderMalformedError" });
  });
});

describe("extractJson and base URLs", () => {
  it("finds JSON inside code fences or a sentence", () => {
    expect(extractJson('Sure!\n```json\n["a", "b"]\n```', "array")).toEqual(["a", "b"]);
    expect(extractJson('Here: {"description": "d", "tags": []} hope it helps', "object")).toEqual({ description: "d", tags: [] });
    expect(() => extractJson("no json here", "array")).toThrow();
  });

  it("normalises a base URL and says what is wrong with a bad one", () => {
    expect(normalizeBaseUrl(" http://127.0.0.1:11434/v1/ ")).toBe("http://127.0.0.1:11434/v1");
    expect(() => normalizeBaseUrl("ftp://x/v1")).toThrow(/http:\/\/ or https:\/\//);
    expect(() => normalizeBaseUrl("https://user:sk-secret@api.example.com/v1")).toThrow(/not in the base URL/);
    expect(() => normalizeBaseUrl("https://api.example.com/v1?key=1")).toThrow(/no query/);
    expect(() => normalizeBaseUrl("localhost")).toThrow(/web address/);
  });
});

describe("the provider against a Chat Completions server", () => {
  const fake = new FakeOpenAICompatible("my-local-pass-42");
  const provider = (overrides: { apiKey?: string; model?: string } = {}) =>
    createOpenAICompatibleTextProvider({ baseUrl: `${fake.baseUrl}/`, model: overrides.model ?? "llama3.2", apiKey: overrides.apiKey ?? fake.apiKey, policy: { timeoutMs: 5000 }, allowPrivateNetwork: true });
  const request = { title: "Tides", topic: "why the sea rises and falls", chunkIndex: 0, totalChunks: 2, targetWords: 120, seed: "s" };

  beforeAll(() => fake.start());
  afterAll(() => fake.stop());
  beforeEach(() => {
    fake.requests.length = 0;
    fake.chats.length = 0;
    fake.setMode({});
  });

  it("posts a streamed chat completion with the model, the messages, a token budget and the bearer key", async () => {
    const words: number[] = [];
    const text = await provider().writeScriptChunk(request, { onWords: (n) => words.push(n) });
    const [sent] = fake.requestsTo(/chat\/completions/);
    expect(sent!.method).toBe("POST");
    expect(sent!.path).toBe("/v1/chat/completions");
    expect(sent!.headers.authorization).toBe(`Bearer ${fake.apiKey}`);
    expect(sent!.headers["content-type"]).toBe("application/json");
    const body = fake.chats[0]!;
    expect(body).toMatchObject({ model: "llama3.2", stream: true, max_tokens: Math.ceil(120 * 2.2) + 256 });
    expect(body.messages!.map((m) => m.role)).toEqual(["system", "user"]);
    expect(body.messages![1]!.content).toContain("part 1 of 2 of the script, about 120 words");
    expect(countWords(text)).toBeGreaterThanOrEqual(120);
    // progress arrived as the words did, growing, ending at the whole chunk
    expect(words.length).toBeGreaterThan(10);
    expect(words).toEqual([...words].sort((a, b) => a - b));
    expect(words.at(-1)).toBe(countWords(text));
  });

  it("sends no Authorization header when no key is set (Ollama, LM Studio)", async () => {
    const open = new FakeOpenAICompatible("");
    await open.start();
    try {
      await createOpenAICompatibleTextProvider({ baseUrl: open.baseUrl, model: "qwen2.5:7b", allowPrivateNetwork: true }).writeScriptChunk(request);
      expect(open.requests[0]!.headers.authorization).toBeUndefined();
    } finally {
      await open.stop();
    }
  });

  it("reads a whole JSON answer from a server that does not stream", async () => {
    fake.setMode({ streams: false });
    const words: number[] = [];
    const text = await provider().writeScriptChunk(request, { onWords: (n) => words.push(n) });
    expect(countWords(text)).toBeGreaterThanOrEqual(120);
    expect(words).toEqual([countWords(text)]);
  });

  it("writes one image prompt per scene from a fenced JSON answer, scenes ending at sentences", async () => {
    const script = "The moon pulls the sea. The sun helps a little. Two bulges form. Coasts pass through both. Sailors know the rhythm.";
    const scenes = await provider().splitIntoScenes({ title: "Tides", script, resolution: "9:16", durationSeconds: 15, sceneCount: 3, seed: "s" });
    expect(scenes).toHaveLength(3);
    expect(scenes.map((s) => s.voiceoverText).join(" ")).toBe(script);
    expect(scenes.every((s) => /[.!?]$/.test(s.voiceoverText))).toBe(true);
    expect(scenes[2]!.imagePrompt).toContain("scene 3");
    expect(fake.chats[0]!.messages![1]!.content).toContain("a vertical 9:16 frame");
  });

  it("writes upload metadata from a JSON object", async () => {
    const meta = await provider().writeUploadMetadata({ title: "Tides", script: "The moon pulls the sea." });
    expect(meta.tags).toContain("tides");
    expect(meta.description).toContain("#tides");
  });

  it("asks for the project's language in every prompt (image prompts in English), as Gemini does", async () => {
    const p = provider();
    await p.writeScriptChunk({ ...request, language: "de" });
    await p.expandScriptChunk({ title: "Gezeiten", topic: "Ebbe und Flut", text: "Der Mond zieht das Meer an.", targetWords: 40, attempt: 1, seed: "s", language: "de" });
    await p.proofreadScript({ title: "Gezeiten", text: "Der Mond zieht das Meer an.", language: "de" });
    await p.splitIntoScenes({ title: "Gezeiten", script: "Der Mond zieht das Meer an. Die Sonne hilft.", resolution: "9:16", durationSeconds: 10, sceneCount: 2, seed: "s", language: "de" });
    await p.writeUploadMetadata({ title: "Gezeiten", script: "Der Mond zieht das Meer an.", language: "de" });
    const prompts = fake.chats.map((c) => c.messages![1]!.content);
    expect(prompts).toHaveLength(5);
    expect(prompts[0]).toContain("Write the narration in German (Deutsch), whatever the language of the title and topic.");
    expect(prompts[1]).toContain("Write it in German (Deutsch)");
    expect(prompts[2]).toContain("including its length, language and paragraphs");
    expect(prompts[3]).toContain("Write the image prompts in English, whatever the narration's language.");
    expect(prompts[4]).toContain("Write the description and tags in German (Deutsch)");
  });

  it("switches to max_completion_tokens when the model refuses max_tokens, and remembers it", async () => {
    fake.setMode({ refusesMaxTokens: true });
    const p = provider();
    await p.writeScriptChunk(request);
    await p.proofreadScript({ title: "Tides", text: "The moon pulls the sea. The sun helps." });
    expect(fake.chats.map((c) => [c.max_tokens !== undefined, c.max_completion_tokens !== undefined])).toEqual([
      [true, false],
      [false, true],
      [false, true],
    ]);
  });

  it("surfaces the server's own error message, scrubbed of the key, without retrying a 4xx", async () => {
    fake.setMode({ failWith: { status: 400, message: `This model's maximum context length is 8192 tokens (key ${fake.apiKey} echoed)` } });
    const error = (await provider().writeScriptChunk(request).catch((e: unknown) => e)) as ProviderError;
    expect(error).toBeInstanceOf(ProviderError);
    expect(error.name).toBe("ProviderRejectedError");
    expect(error.message).toContain("The model server refused the request (HTTP 400): This model's maximum context length is 8192 tokens");
    expect(error.message).not.toContain(fake.apiKey);
    expect(fake.chats).toHaveLength(1);
  });

  it("says which model the server does not have", async () => {
    await expect(provider({ model: "mistral" }).writeScriptChunk(request)).rejects.toThrow('(HTTP 404): model "mistral" not found, try pulling it first');
  });

  it("reads a rejected key with the server's words and never echoes the key", async () => {
    const error = (await provider({ apiKey: "sk-wrong-key-abcdefghijklmnop" }).writeScriptChunk(request).catch((e: unknown) => e)) as ProviderError;
    expect(error.name).toBe("ProviderAuthError");
    expect(error.message).toMatch(/^The model server rejected the API key \(HTTP 401: Incorrect API key provided/);
    expect(error.message).not.toContain("sk-wrong-key");
  });

  it("lists the server's models", async () => {
    expect(await provider().listModels()).toEqual(["gpt-4o-mini", "llama3.2", "qwen2.5:7b"]);
  });
});
