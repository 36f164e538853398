// A scene's picture scored against what its narrator says, by Gemini's vision (issue 50, decision 226). One
// generateContent request with the picture as inline data (base64, its MIME type) and the voiceover as text, and a
// structured JSON answer (responseMimeType application/json + responseJsonSchema):
//   https://ai.google.dev/gemini-api/docs/image-understanding (inline_data parts; whole request under 20 MB)
//   https://ai.google.dev/gemini-api/docs/structured-output (responseMimeType, responseJsonSchema)
// Through the official SDK, with our HTTP client as its fetch, like the Gemini text provider.
import { GoogleGenAI } from "@google/genai";
import { z } from "zod";
import { ProviderError } from "../errors";
import { createHttpClient, type CloudAdapterOptions } from "../http.server";
import { isGeminiKeyError } from "../gemini-key-error";

const PROVIDER = "Gemini";
/** Gemini takes inline data up to a 20 MB request; a scene picture is far smaller, a larger one is refused here. */
export const MAX_INLINE_IMAGE_BYTES = 15 * 1024 * 1024;

export type SceneVerdict = { score: number; matches: boolean; reason: string; suggestedPrompt: string };

/** The answer's shape, sent as responseJsonSchema and checked again on the way back. */
export const SCENE_VERDICT_SCHEMA = {
  type: "object",
  properties: {
    score: { type: "integer", minimum: 0, maximum: 100, description: "How well the picture shows what the narrator says, 0 to 100." },
    matches: { type: "boolean", description: "Whether a viewer would see what is said." },
    reason: { type: "string", description: "One sentence: what the picture shows against what is said." },
    suggestedPrompt: { type: "string", description: "A picture prompt that would show what is said; no text in the picture." },
  },
  required: ["score", "matches", "reason", "suggestedPrompt"],
} as const;

const Verdict = z.object({
  score: z.number().min(0).max(100),
  matches: z.boolean(),
  reason: z.string().min(1).max(2000),
  suggestedPrompt: z.string().max(2000),
});


export type SceneVision = { checkScene(r: { image: Buffer; mimeType: string; voiceover: string; prompt: string }): Promise<SceneVerdict> };

export function createGeminiSceneVision(options: CloudAdapterOptions & { model: string }): SceneVision {
  const http = createHttpClient({ provider: PROVIDER, policy: options.policy, call: options.call, isAuthFailure: isGeminiKeyError });
  const ai = new GoogleGenAI({ apiKey: options.apiKey, httpOptions: { baseUrl: options.baseUrl, fetch: (input, init) => http.request(input, init) } });
  const thinking = /flash/i.test(options.model) ? { thinkingConfig: { thinkingBudget: 0 } } : {};
  return {
    async checkScene({ image, mimeType, voiceover, prompt }) {
      if (image.length > MAX_INLINE_IMAGE_BYTES) throw new ProviderError(PROVIDER, "rejected", "The scene's picture is too large to check.");
      const instruction = [
        "This picture is shown in a video while the narrator says:",
        `"${voiceover.trim().slice(0, 1500)}"`,
        `It was made from the prompt: "${prompt.trim().slice(0, 600)}".`,
        "Score from 0 to 100 how well the picture shows what is said (the things, people, places or actions named).",
        "Give the reason in one sentence, and a better picture prompt that would show what is said, with no text in the picture.",
      ].join("\n");
      let response;
      try {
        response = await ai.models.generateContent({
          model: options.model,
          contents: [{ role: "user", parts: [{ inlineData: { mimeType, data: image.toString("base64") } }, { text: instruction }] }],
          config: { temperature: 0, maxOutputTokens: 512, ...thinking, responseMimeType: "application/json", responseJsonSchema: SCENE_VERDICT_SCHEMA },
        });
      } catch (error) {
        if (error instanceof ProviderError) throw error;
        throw new ProviderError(PROVIDER, "malformed", `${PROVIDER} sent an answer we could not read: ${(error as Error).message.slice(0, 200)}`);
      }
      const blocked = response.promptFeedback?.blockReason;
      if (blocked) throw new ProviderError(PROVIDER, "rejected", `${PROVIDER} refused to look at the picture (${blocked}).`);
      const text = response.text?.trim();
      if (!text) throw new ProviderError(PROVIDER, "malformed", `${PROVIDER} returned no verdict (finish reason: ${response.candidates?.[0]?.finishReason ?? "unknown"}).`);
      let parsed;
      try {
        parsed = Verdict.safeParse(JSON.parse(text));
      } catch {
        throw new ProviderError(PROVIDER, "malformed", `${PROVIDER} sent a verdict that is not JSON.`);
      }
      if (!parsed.success) throw new ProviderError(PROVIDER, "malformed", `${PROVIDER} sent a verdict we could not read (${parsed.error.issues[0]?.message ?? "unexpected shape"}).`);
      return { ...parsed.data, score: Math.round(parsed.data.score) };
    },
  };
}
