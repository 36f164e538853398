// A local fake of the Gemini API's generateContent endpoint.
// Shapes from (found with the docs search):
//   https://ai.google.dev/api/rest/v1/GenerationConfig (models.generateContent: POST /v1beta/{model=models/*}:generateContent,
//     request contents[].parts[].text + generationConfig; response candidates[].content.parts[].text, finishReason, usageMetadata)
//   https://www.developersdigest.tech/errors/api/gemini-api (error body: 400 INVALID_ARGUMENT with ErrorInfo reason
//     API_KEY_INVALID, "API key not valid. Please pass a valid API key.")
// The key travels in the x-goog-api-key header (or ?key=).
import { FakeApi, type FakeRequest, type FakeResponse, type Route } from "./fake-api";

type GenerateBody = {
  contents?: { parts?: { text?: string }[] }[];
  generationConfig?: { responseMimeType?: string; responseJsonSchema?: { type?: string; minItems?: number } };
};

export class FakeGemini extends FakeApi {
  /** Every prompt received, in order. */
  readonly prompts: string[] = [];

  protected keyOf(req: FakeRequest) {
    return (req.headers["x-goog-api-key"] as string | undefined) ?? req.query.get("key") ?? undefined;
  }

  protected rejectedKey(): FakeResponse {
    return {
      status: 400,
      json: {
        error: {
          code: 400,
          message: "API key not valid. Please pass a valid API key.",
          status: "INVALID_ARGUMENT",
          details: [{ "@type": "type.googleapis.com/google.rpc.ErrorInfo", reason: "API_KEY_INVALID", domain: "googleapis.com" }],
        },
      },
    };
  }

  protected routes(): Route[] {
    return [{ method: "POST", pattern: /^\/v1beta\/models\/([^/:]+):generateContent$/, handle: (req) => this.generate(req) }];
  }

  private generate(req: FakeRequest): FakeResponse {
    const body = req.json() as GenerateBody;
    const prompt = (body.contents ?? []).flatMap((c) => c.parts ?? []).map((p) => p.text ?? "").join("\n");
    this.prompts.push(prompt);
    const config = body.generationConfig ?? {};
    let text: string;
    if (config.responseMimeType === "application/json") {
      const schema = config.responseJsonSchema ?? {};
      text =
        schema.type === "array"
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
    return {
      json: {
        candidates: [{ content: { parts: [{ text }], role: "model" }, finishReason: "STOP", index: 0 }],
        usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 10, totalTokenCount: 20 },
        modelVersion: "gemini-2.5-flash",
      },
    };
  }
}
