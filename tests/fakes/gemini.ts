// A local fake of the Gemini API's generateContent endpoint.
// Shapes from (found with the docs search):
//   https://ai.google.dev/api/rest/v1/GenerationConfig (models.generateContent: POST /v1beta/{model=models/*}:generateContent,
//     request contents[].parts[].text + generationConfig; response candidates[].content.parts[].text, finishReason, usageMetadata)
//   https://www.developersdigest.tech/errors/api/gemini-api (error body: 400 INVALID_ARGUMENT with ErrorInfo reason
//     API_KEY_INVALID, "API key not valid. Please pass a valid API key.")
// The key travels in the x-goog-api-key header (or ?key=).
// Vision (issue 50, the scene check): a request whose parts carry inline image data (inlineData or inline_data:
//   mimeType + base64 data, https://ai.google.dev/gemini-api/docs/image-understanding) is answered with a verdict in
//   the requested JSON schema. The fake "sees" the picture through the prompt it was made from (quoted in the
//   instruction): the score is the share of the narration's content words the prompt shows, and the suggested prompt
//   names them. An image part that is not a PNG, JPEG or WebP is refused as Gemini does (400 INVALID_ARGUMENT).
// Shorts and translation (issue 51): JSON answers in the requested schema (shortMoments, translations below).
import type { FakeRequest, FakeResponse, Route } from "./fake-api";
import { GoogleApiFake } from "./google-api";

type InlineData = { mimeType?: string; mime_type?: string; data?: string };
type GenerateBody = {
  contents?: { parts?: { text?: string; inlineData?: InlineData; inline_data?: InlineData }[] }[];
  generationConfig?: { responseMimeType?: string; responseJsonSchema?: { type?: string; minItems?: number; properties?: Record<string, unknown>; items?: { type?: string } } };
};

const STOP_WORDS = new Set("the a an and or of to in on at for with from this that these those is are was were be been it its his her their our your into over under than then there here what when where which while who why how very more most some many much just also only not no".split(" "));
const contentWords = (text: string) => [...new Set(text.toLowerCase().match(/[a-z]{4,}/g) ?? [])].filter((w) => !STOP_WORDS.has(w));

/** Whether base64 data starts like a PNG, JPEG or WebP file. */
function looksLikeImage(data: string): boolean {
  const head = Buffer.from(data.slice(0, 24), "base64");
  return head.subarray(0, 4).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47])) || head.subarray(0, 3).equals(Buffer.from([0xff, 0xd8, 0xff])) || head.subarray(8, 12).toString("latin1") === "WEBP";
}

/**
 * Shorts (issue 51): the fake picks runs from the video's end backwards (unlike the rule-based pick, which favours
 * openings), each as many scenes as fit the seconds the prompt allows, and first a run outside the video, which the
 * caller must drop. Hooks name the scene they open.
 */
function shortMoments(prompt: string) {
  const limit = Number(/add up to at most (\d+) seconds/.exec(prompt)?.[1] ?? 55);
  const count = Number(/Pick up to (\d+) moments/.exec(prompt)?.[1] ?? 3);
  const scenes = [...prompt.matchAll(/^Scene (\d+) \(([\d.]+) s\): /gm)].map((m) => ({ index: Number(m[1]), seconds: Number(m[2]) }));
  const runs: { fromScene: number; toScene: number; hook: string; reason: string }[] = [{ fromScene: scenes.length + 5, toScene: scenes.length + 6, hook: "Out of the video", reason: "A scene that is not there" }];
  let end = scenes.length - 1;
  while (end >= 0 && runs.length < count + 1) {
    let start = end;
    let sum = scenes[end]!.seconds;
    while (start > 0 && sum + scenes[start - 1]!.seconds <= limit) sum += scenes[--start]!.seconds;
    if (sum <= limit) runs.push({ fromScene: start, toScene: end, hook: `The model's hook for scene ${start + 1}`, reason: "The fake model liked this moment" });
    end = start - 1;
  }
  return runs;
}

/** Translation (issue 51): each "Text n: ..." line back as "[Language] ...", in order, as many as were sent. */
function translations(prompt: string) {
  const to = /into ([A-Za-z ()]+?) \(/.exec(prompt)?.[1] ?? "Other";
  return [...prompt.matchAll(/^Text \d+: (.*)$/gm)].map((m) => `[${to}] ${m[1]}`);
}

/** generateContent's answer: one candidate holding `text`, and the tokens counted. */
function answer(text: string, promptTokens: number, answerTokens: number): FakeResponse {
  return {
    json: {
      candidates: [{ content: { parts: [{ text }], role: "model" }, finishReason: "STOP", index: 0 }],
      usageMetadata: { promptTokenCount: promptTokens, candidatesTokenCount: answerTokens, totalTokenCount: promptTokens + answerTokens },
      modelVersion: "gemini-2.5-flash",
    },
  };
}

export class FakeGemini extends GoogleApiFake {
  /** Every prompt received, in order. */
  readonly prompts: string[] = [];
  /** Every vision request: the image's MIME type and size, and the instruction sent with it. */
  readonly visionRequests: { mimeType: string; bytes: number; instruction: string }[] = [];

  protected routes(): Route[] {
    return [{ method: "POST", pattern: /^\/v1beta\/models\/([^/:]+):generateContent$/, handle: (req) => this.generate(req) }];
  }

  private generate(req: FakeRequest): FakeResponse {
    const body = req.json() as GenerateBody;
    const parts = (body.contents ?? []).flatMap((c) => c.parts ?? []);
    const inline = parts.map((p) => p.inlineData ?? p.inline_data).find(Boolean);
    if (inline) return this.vision(inline, parts.map((p) => p.text ?? "").join("\n"), body);
    const prompt = (body.contents ?? []).flatMap((c) => c.parts ?? []).map((p) => p.text ?? "").join("\n");
    this.prompts.push(prompt);
    const config = body.generationConfig ?? {};
    let text: string;
    if (config.responseMimeType === "application/json" && /^The YouTube video .* scenes \(numbered from 0/.test(prompt)) {
      text = JSON.stringify(shortMoments(prompt));
    } else if (config.responseMimeType === "application/json" && /^Translate the \d+ texts below/.test(prompt)) {
      text = JSON.stringify(translations(prompt));
    } else if (config.responseMimeType === "application/json") {
      const schema = config.responseJsonSchema ?? {};
      // video ideas for a channel (issue 52): numbered ideas on the quoted channel topic, none repeating a listed title
      const channelTopic = /about: "([^"]*)"/.exec(prompt)?.[1];
      text =
        schema.type === "array" && schema.items?.type === "object" && channelTopic !== undefined
          ? JSON.stringify(
              Array.from({ length: schema.minItems ?? 1 }, (_, i) => ({
                title: `${channelTopic.split(/[.,]/)[0]!.trim()}: idea ${this.prompts.length}-${i + 1}`,
                topic: `Idea ${i + 1} about ${channelTopic}, after ${(prompt.match(/^- /gm) ?? []).length} earlier videos.`,
              })),
            )
          : schema.type === "array"
          ? JSON.stringify(Array.from({ length: schema.minItems ?? 1 }, (_, i) => `A painted landscape for scene ${i + 1}, soft light`))
          : JSON.stringify({ description: "A short film about the subject.\n\n#fake #video #test", tags: ["fake", "video", "test"] });
    } else {
      const words = Number(/about (\d+) words/.exec(prompt)?.[1] ?? 40);
      const sentences: string[] = [];
      for (let n = 0, i = 0; n < words; i++) {
        sentences.push(`Sentence ${this.prompts.length}-${i} tells the viewer one more true thing.`);
        n += 9;
      }
      text = `## Heading to strip\n\n${sentences.join(" ")}`;
    }
    return answer(text, 10, 10);
  }

  private vision(inline: InlineData, instruction: string, body: GenerateBody): FakeResponse {
    const mimeType = inline.mimeType ?? inline.mime_type ?? "";
    const data = inline.data ?? "";
    if (!/^image\/(png|jpeg|webp|heic|heif)$/.test(mimeType) || !data || !looksLikeImage(data)) {
      return { status: 400, json: { error: { code: 400, message: "Unable to process input image. Please retry or report in https://developers.generativeai.google/guide/troubleshooting", status: "INVALID_ARGUMENT" } } };
    }
    this.visionRequests.push({ mimeType, bytes: Buffer.from(data, "base64").length, instruction });
    const quoted = [...instruction.matchAll(/"([^"]*)"/g)].map((m) => m[1] ?? "");
    const [said = "", prompt = ""] = quoted;
    const wanted = contentWords(said);
    const shown = new Set(contentWords(prompt));
    const seen = wanted.filter((w) => shown.has(w));
    const score = wanted.length ? Math.round((100 * seen.length) / wanted.length) : 100;
    const missing = wanted.filter((w) => !shown.has(w));
    const verdict = {
      score,
      matches: score >= 60,
      reason: missing.length ? `The picture does not show ${missing.slice(0, 3).join(", ")}, which the narrator talks about.` : "The picture shows what the narrator says.",
      suggestedPrompt: `A clear photograph of ${wanted.join(", ")}`,
    };
    const json = body.generationConfig?.responseMimeType === "application/json" && body.generationConfig.responseJsonSchema?.properties;
    const text = json ? JSON.stringify(verdict) : verdict.reason;
    return answer(text, 268, 60);
  }
}
