// A local fake of the Leonardo.Ai REST API (models, generations, a CDN for the images, the webhook payload).
// Shapes from (found with the docs search):
//   https://docs.leonardo.ai/docs/getting-started.md: POST /api/rest/v1/generations with "authorization: Bearer <key>"
//   https://raw.githubusercontent.com/api-evangelist/leonardo-ai/refs/heads/main/examples/leonardo-ai-get-generation-example.json:
//     GET /generations/{id} -> { generations_by_pk: { id, status: PENDING|COMPLETE|FAILED, generated_images: [{ id, url }] } }
//   https://docs.leonardo.ai/docs/api-faq.md and .../json-schema/leonardo-ai-model-schema.json: GET /platformModels and
//     GET /models/user/{userId} (models with id, name, description, featured) under "custom_models"
//   https://docs.leonardo.ai/docs/guide-to-the-webhook-callback-feature (via the api-evangelist asyncapi document):
//     POST to the configured URL, "Authorization: Bearer <webhook api key>", { type: "image_generation.complete", data: { object } }
// Create answers { sdGenerationJob: { generationId } }; GET /me answers { user_details: [{ user: { id } }] }.
import sharp from "sharp";
import { FakeApi, type FakeRequest, type FakeResponse, type Route } from "./fake-api";

type Generation = { id: string; prompt: string; width: number; height: number; polls: number };

export const FAKE_LEONARDO_USER = "user-1";

export class FakeLeonardo extends FakeApi {
  readonly generations = new Map<string, Generation>();
  /** Status checks that answer PENDING before a generation completes. */
  pendingPolls = 1;
  /** When set, generations end FAILED instead of COMPLETE. */
  failGenerations = false;

  protected keyOf(req: FakeRequest) {
    return (req.headers.authorization ?? "").replace(/^Bearer\s+/i, "") || undefined;
  }

  protected rejectedKey(): FakeResponse {
    return { status: 401, json: { error: "Invalid API key", path: "$", code: "invalid-jwt" } };
  }

  protected isPublic(req: FakeRequest) {
    return req.path.startsWith("/cdn/");
  }

  protected routes(): Route[] {
    return [
      { method: "GET", pattern: /^\/me$/, handle: () => ({ json: { user_details: [{ user: { id: FAKE_LEONARDO_USER, username: "creator" }, tokenRenewalDate: null }] } }) },
      {
        method: "GET",
        pattern: /^\/models\/user\/([^/]+)$/,
        handle: () => ({ json: { custom_models: [{ id: "m-mine", name: "My Style", description: "Trained on my thumbnails", featured: false }] } }),
      },
      {
        method: "GET",
        pattern: /^\/platformModels$/,
        handle: () => ({
          json: {
            custom_models: [
              { id: "aa77f04e-3eec-4034-9c07-d0f619684628", name: "Leonardo Kino XL", description: "A model with a strong focus on cinematic outputs.", featured: true },
              { id: "m-phoenix", name: "Leonardo Phoenix", description: "Prompt adherence and text rendering.", featured: true },
              { id: "m-sdxl", name: "SDXL 1.0", description: "The base SDXL model.", featured: false },
            ],
          },
        }),
      },
      {
        method: "POST",
        pattern: /^\/generations$/,
        handle: (req) => {
          const body = req.json() as { prompt: string; width: number; height: number };
          const id = `gen-${this.generations.size + 1}`;
          this.generations.set(id, { id, prompt: body.prompt, width: body.width, height: body.height, polls: 0 });
          return { json: { sdGenerationJob: { generationId: id, apiCreditCost: 8 } } };
        },
      },
      {
        method: "GET",
        pattern: /^\/generations\/([^/]+)$/,
        handle: (_req, [id]) => {
          const g = this.generations.get(id!);
          if (!g) return { json: { generations_by_pk: null } };
          g.polls++;
          const done = g.polls > this.pendingPolls;
          const status = !done ? "PENDING" : this.failGenerations ? "FAILED" : "COMPLETE";
          return {
            json: {
              generations_by_pk: {
                id: g.id,
                status,
                prompt: g.prompt,
                imageWidth: g.width,
                imageHeight: g.height,
                generated_images: status === "COMPLETE" ? [{ id: `${g.id}-img`, url: `${this.url}/cdn/${g.id}.jpg`, nsfw: false }] : [],
              },
            },
          };
        },
      },
      {
        method: "GET",
        pattern: /^\/cdn\/([^/]+)\.jpg$/,
        handle: async (_req, [id]) => {
          const g = this.generations.get(id!);
          if (!g) return { status: 404, body: "no such image" };
          const shade = (g.prompt.length * 37) % 255;
          const body = await sharp({ create: { width: g.width, height: g.height, channels: 3, background: { r: shade, g: 90, b: 160 } } }).jpeg().toBuffer();
          return { body, contentType: "image/jpeg" };
        },
      },
    ];
  }

  /** The body Leonardo POSTs to the webhook URL when a generation completes. */
  webhookPayload(generationId: string) {
    return {
      type: "image_generation.complete",
      object: "generation",
      timestamp: 1_700_000_000,
      api_version: "v1",
      data: { object: { id: generationId, status: "COMPLETE", images: [{ id: `${generationId}-img`, url: `${this.url}/cdn/${generationId}.jpg`, nsfw: false }] } },
    };
  }
}
