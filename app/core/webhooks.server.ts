// Webhooks (issue 32, decision 163): a creator registers a URL for some events; when one happens Reelsmith records
// a delivery per endpoint and POSTs `{ id, type, created, data }` signed as Stripe does: the Reelsmith-Signature
// header is `t=<unix seconds>,v1=<hex HMAC-SHA256 over "<t>.<body>">` with the endpoint's secret (whsec_...,
// stored encrypted, shown once). The settings card lists endpoints and their latest deliveries.
import { createHmac, randomBytes } from "node:crypto";
import { z } from "zod";
import type { Prisma } from "~/generated/prisma/client";
import { WEBHOOK_EVENTS, type WebhookEvent } from "../../workflows/shared/webhooks";
import { refusal } from "./refusal.server";
import { prisma } from "./db.server";
import { decryptSecret, encryptSecret } from "./encryption.server";
import { privateTargetsAllowedFor } from "./permissions.server";
import { checkWebhookTarget } from "./webhook-target.server";

export const MAX_WEBHOOK_ENDPOINTS = 10;
export const WEBHOOK_DELIVERIES_SHOWN = 20;
export const WEBHOOK_SIGNATURE_HEADER = "Reelsmith-Signature";
const SECRET_FIELD = "webhookSecret";

export const CreateWebhookSchema = z
  .object({
    url: z.string().trim().min(1, "Give the URL to send events to.").max(2000, "The URL is at most 2,000 characters."),
    events: z.array(z.enum(WEBHOOK_EVENTS, { message: `Events are ${WEBHOOK_EVENTS.join(", ")}.` })).min(1, "Choose at least one event.").max(WEBHOOK_EVENTS.length),
    allowPrivate: z.boolean().default(false),
  })
  .strict();
export type CreateWebhook = z.output<typeof CreateWebhookSchema>;

export type WebhookDeliveryView = { id: string; eventId: string; event: string; status: string; attempts: number; responseStatus: number | null; error: string | null; createdAt: string; deliveredAt: string | null };
export type WebhookEndpointView = { id: string; url: string; events: string[]; allowPrivate: boolean; createdAt: string; deliveries: WebhookDeliveryView[] };

/** `t=<seconds>,v1=<hex>`: the signature of `body` at `timestamp` with `secret`. */
export function signWebhookBody(secret: string, timestamp: number, body: string): string {
  return `t=${timestamp},v1=${createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex")}`;
}

/** The refusal a creator who may not use private addresses gets for ticking "allow private addresses" (decision 196). */
export const PRIVATE_TARGETS_NOT_ALLOWED =
  "Only the owner's account may send webhooks to private or loopback addresses on this server (the operator allows it for everyone with ALLOW_PRIVATE_TARGETS=true). Use the receiver's public address.";

export async function createWebhookEndpoint(userId: string, input: CreateWebhook): Promise<{ secret: string; endpoint: WebhookEndpointView }> {
  // the tick counts only for a creator who may use private addresses: for anyone else it is refused, not trusted
  if (input.allowPrivate && !(await privateTargetsAllowedFor(userId))) throw refusal(403, PRIVATE_TARGETS_NOT_ALLOWED, { field: "allowPrivate" });
  try {
    await checkWebhookTarget(input.url, input.allowPrivate);
  } catch (e) {
    throw refusal(400, (e as Error).message, { field: "url" });
  }
  if ((await prisma.webhookEndpoint.count({ where: { userId } })) >= MAX_WEBHOOK_ENDPOINTS) {
    throw refusal(409, `An account has at most ${MAX_WEBHOOK_ENDPOINTS} webhook endpoints. Delete one first.`, { field: null });
  }
  const secret = `whsec_${randomBytes(24).toString("base64url")}`;
  const row = await prisma.webhookEndpoint.create({
    data: { userId, url: input.url, events: [...new Set(input.events)], allowPrivate: input.allowPrivate, secretEnc: encryptSecret(secret, { userId, field: SECRET_FIELD }) },
  });
  return { secret, endpoint: { id: row.id, url: row.url, events: row.events, allowPrivate: row.allowPrivate, createdAt: row.createdAt.toISOString(), deliveries: [] } };
}

/** The user's endpoints with their latest deliveries (the delivery log), never the secrets. */
export async function listWebhookEndpoints(userId: string): Promise<WebhookEndpointView[]> {
  const rows = await prisma.webhookEndpoint.findMany({
    where: { userId },
    orderBy: { createdAt: "desc" },
    include: { deliveries: { orderBy: { createdAt: "desc" }, take: WEBHOOK_DELIVERIES_SHOWN } },
  });
  return rows.map((r) => ({
    id: r.id,
    url: r.url,
    events: r.events,
    allowPrivate: r.allowPrivate,
    createdAt: r.createdAt.toISOString(),
    deliveries: r.deliveries.map((d) => ({
      id: d.id,
      eventId: d.eventId,
      event: d.event,
      status: d.status,
      attempts: d.attempts,
      responseStatus: d.responseStatus,
      error: d.error,
      createdAt: d.createdAt.toISOString(),
      deliveredAt: d.deliveredAt?.toISOString() ?? null,
    })),
  }));
}

export async function deleteWebhookEndpoint(userId: string, id: string): Promise<void> {
  const deleted = await prisma.webhookEndpoint.deleteMany({ where: { id, userId } });
  if (deleted.count === 0) throw refusal(404, "Webhook endpoint not found.", { field: "id" });
}

/** Records `event` for each of the user's endpoints that listens to it; the delivery ids, to deliver each. */
export async function emitWebhookEvent(userId: string, event: WebhookEvent, data: Prisma.InputJsonValue): Promise<string[]> {
  const endpoints = await prisma.webhookEndpoint.findMany({ where: { userId, events: { has: event } }, select: { id: true } });
  if (endpoints.length === 0) return [];
  const eventId = `evt_${randomBytes(12).toString("base64url")}`;
  const payload = { id: eventId, type: event, created: new Date().toISOString(), data } satisfies Prisma.InputJsonValue;
  const rows = await prisma.$transaction(endpoints.map((e) => prisma.webhookDelivery.create({ data: { endpointId: e.id, eventId, event, payload }, select: { id: true } })));
  return rows.map((r) => r.id);
}

/**
 * The delivery with what it takes to send it: the endpoint's URL, its secret in the clear, and the body. Private
 * addresses are allowed only when the endpoint asked for them and its creator may have them now (an endpoint saved
 * before decision 196, or by an account that is no longer the owner's, is held to public addresses).
 */
export async function deliveryToSend(deliveryId: string) {
  const delivery = await prisma.webhookDelivery.findUnique({ where: { id: deliveryId }, include: { endpoint: true } });
  if (!delivery) return null;
  const secret = decryptSecret(delivery.endpoint.secretEnc, { userId: delivery.endpoint.userId, field: SECRET_FIELD });
  const allowPrivate = delivery.endpoint.allowPrivate && (await privateTargetsAllowedFor(delivery.endpoint.userId));
  return { delivery, url: delivery.endpoint.url, allowPrivate, secret, body: JSON.stringify(delivery.payload) };
}
