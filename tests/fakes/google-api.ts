// What the fakes of Google's Generative Language API share (Gemini's text and vision, tests/fakes/gemini.ts; Veo's
// clips, tests/fakes/ai-clips.ts): the key in the x-goog-api-key header (or ?key=), and the documented answer to a
// wrong one, 400 INVALID_ARGUMENT with the ErrorInfo reason API_KEY_INVALID
// (https://www.developersdigest.tech/errors/api/gemini-api), which the app recognises in one place for text, vision and Veo.
import { FakeApi, type FakeRequest, type FakeResponse } from "./fake-api";

export abstract class GoogleApiFake extends FakeApi {
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
}
