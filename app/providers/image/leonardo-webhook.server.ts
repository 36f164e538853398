// Reading Leonardo's webhook callback (POST /api/leonardo-webhook). Leonardo sends the "webhook API key" set on
// the production key as a Bearer token; calls without the shared secret are refused.
import crypto from "node:crypto";
import { z } from "zod";
import { BodyLimitError, MAX_JSON_BYTES, readBodyWithin } from "~/lib/request-body.server";

export class LeonardoWebhookError extends Error {
  constructor(
    readonly status: 400 | 401 | 413 | 503,
    message: string,
  ) {
    super(message);
    this.name = "LeonardoWebhookError";
  }
}

const WebhookSchema = z.object({
  type: z.string(),
  data: z.object({
    object: z.object({
      id: z.string().min(1),
      status: z.string(),
      images: z.array(z.object({ url: z.string().url() })).default([]),
    }),
  }),
});

export type LeonardoWebhookEvent = { type: string; generationId: string; status: string; imageUrls: string[] };

function sameSecret(given: string, expected: string): boolean {
  const a = crypto.createHash("sha256").update(given).digest();
  const b = crypto.createHash("sha256").update(expected).digest();
  return crypto.timingSafeEqual(a, b);
}

/** Checks the shared secret and parses the event; throws LeonardoWebhookError with the status to answer. */
export async function readLeonardoWebhook(request: Request, secret: string | undefined): Promise<LeonardoWebhookEvent> {
  if (!secret) throw new LeonardoWebhookError(503, "The Leonardo webhook is not configured: set LEONARDO_WEBHOOK_SECRET.");
  const auth = request.headers.get("authorization") ?? "";
  const token = auth.replace(/^Bearer\s+/i, "");
  if (!token || !sameSecret(token, secret)) throw new LeonardoWebhookError(401, "The webhook secret is missing or wrong.");
  let body: unknown;
  try {
    body = JSON.parse((await readBodyWithin(request, MAX_JSON_BYTES)).toString("utf8"));
  } catch (e) {
    if (e instanceof BodyLimitError) throw new LeonardoWebhookError(413, e.message);
    throw new LeonardoWebhookError(400, "The webhook body is not JSON.");
  }
  const parsed = WebhookSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new LeonardoWebhookError(400, `The webhook body is not a Leonardo generation event (${issue?.path.join(".") || "body"}: ${issue?.message}).`);
  }
  const { type, data } = parsed.data;
  return { type, generationId: data.object.id, status: data.object.status, imageUrls: data.object.images.map((i) => i.url) };
}
