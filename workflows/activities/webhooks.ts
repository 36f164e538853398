// The webhook delivery's activities (issue 32, decision 163): one attempt to POST the signed event (a non-2xx
// answer or a network error throws, so Temporal retries it with back-off), and the final failure recorded.
import { ApplicationFailure } from "@temporalio/activity";
import { prisma } from "~/server/db.server";
import { checkWebhookTarget } from "~/server/webhook-target.server";
import { WEBHOOK_SIGNATURE_HEADER, deliveryToSend, signWebhookBody } from "~/server/webhooks.server";
import { WEBHOOK_TARGET_REFUSED, type WebhookDeliveryInput } from "../shared/webhooks";

/** How long a receiver has to answer. */
const WEBHOOK_TIMEOUT_MS = 10_000;

export function createWebhookActivities() {
  return {
    async sendWebhookDelivery(input: WebhookDeliveryInput): Promise<{ status: number }> {
      const found = await deliveryToSend(input.deliveryId);
      if (!found) throw ApplicationFailure.nonRetryable("The webhook endpoint was deleted.", WEBHOOK_TARGET_REFUSED);
      const { delivery, url, allowPrivate, secret, body } = found;
      await prisma.webhookDelivery.update({ where: { id: delivery.id }, data: { attempts: { increment: 1 } } });
      try {
        await checkWebhookTarget(url, allowPrivate);
      } catch (e) {
        await prisma.webhookDelivery.update({ where: { id: delivery.id }, data: { error: (e as Error).message } });
        throw ApplicationFailure.nonRetryable((e as Error).message, WEBHOOK_TARGET_REFUSED);
      }
      const timestamp = Math.floor(Date.now() / 1000);
      let status: number;
      try {
        const response = await fetch(url, {
          method: "POST",
          redirect: "manual",
          signal: AbortSignal.timeout(WEBHOOK_TIMEOUT_MS),
          headers: {
            "Content-Type": "application/json",
            "User-Agent": "Reelsmith-Webhooks/1",
            [WEBHOOK_SIGNATURE_HEADER]: signWebhookBody(secret, timestamp, body),
            "Reelsmith-Event": delivery.event,
            "Reelsmith-Delivery": delivery.eventId,
          },
          body,
        });
        status = response.status;
        await response.body?.cancel().catch(() => {});
      } catch (e) {
        const message = `No answer from ${new URL(url).host}: ${(e as Error).message}`;
        await prisma.webhookDelivery.update({ where: { id: delivery.id }, data: { error: message, responseStatus: null } });
        throw new Error(message);
      }
      if (status < 200 || status >= 300) {
        const message = `The receiver answered ${status}; it must answer 2xx.`;
        await prisma.webhookDelivery.update({ where: { id: delivery.id }, data: { error: message, responseStatus: status } });
        throw new Error(message);
      }
      await prisma.webhookDelivery.update({ where: { id: delivery.id }, data: { status: "delivered", responseStatus: status, error: null, deliveredAt: new Date() } });
      return { status };
    },

    async markWebhookDeliveryFailed(input: WebhookDeliveryInput & { error: string }): Promise<void> {
      await prisma.webhookDelivery.updateMany({ where: { id: input.deliveryId, status: "pending" }, data: { status: "failed", error: input.error.slice(0, 1000) } });
    },
  };
}

export type WebhookActivities = ReturnType<typeof createWebhookActivities>;
