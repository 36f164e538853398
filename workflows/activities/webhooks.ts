// The webhook delivery's activities (issue 32, decisions 163 and 196): one attempt to POST the signed event (a
// non-2xx answer or a network error throws, so Temporal retries it with back-off), and the final failure recorded.
// The POST goes through the outbound guard: the connection is made only to an address checked as it connects.
import { ApplicationFailure } from "@temporalio/activity";
import { createOutboundGuard, outboundRefusalIn, parseOutboundUrl, type OutboundPolicy } from "~/lib/outbound-fetch.server";
import { prisma } from "~/core/db.server";
import { WEBHOOK_SIGNATURE_HEADER, deliveryToSend, signWebhookBody } from "~/core/webhooks.server";
import { WEBHOOK_TARGET_REFUSED, type WebhookDeliveryInput } from "../shared/webhooks";

/** How long a receiver has to answer. */
const WEBHOOK_TIMEOUT_MS = 10_000;

/** Tests inject how names resolve and where sockets go (real DNS is not theirs to control); nothing else does. */
export type WebhookActivityDeps = { network?: Pick<OutboundPolicy, "resolve" | "connector"> };

export function createWebhookActivities(deps: WebhookActivityDeps = {}) {
  return {
    async sendWebhookDelivery(input: WebhookDeliveryInput): Promise<{ status: number }> {
      const found = await deliveryToSend(input.deliveryId);
      if (!found) throw ApplicationFailure.nonRetryable("The webhook endpoint was deleted.", WEBHOOK_TARGET_REFUSED);
      const { delivery, url, allowPrivate, secret, body } = found;
      await prisma.webhookDelivery.update({ where: { id: delivery.id }, data: { attempts: { increment: 1 } } });
      const refuse = async (message: string) => {
        await prisma.webhookDelivery.update({ where: { id: delivery.id }, data: { error: message, responseStatus: null } });
        return ApplicationFailure.nonRetryable(message, WEBHOOK_TARGET_REFUSED);
      };
      try {
        parseOutboundUrl(url);
      } catch (e) {
        throw await refuse(`The webhook URL is refused. ${(e as Error).message}`);
      }
      const timestamp = Math.floor(Date.now() / 1000);
      const guard = createOutboundGuard({ allowPrivate, ...deps.network });
      let status: number;
      try {
        // no redirects are followed (a 3xx is an answer that is not 2xx); the connection is checked as it is made
        const response = await guard.fetch(url, {
          method: "POST",
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
        // refused before it connected or as it connected (the name resolves to a private address by now, or the
        // URL is no longer one we send to): not retried, logged in our words
        const refusal = outboundRefusalIn(e) ?? (guard.refusals() > 0 ? guard.lastRefusal() : undefined);
        if (refusal) throw await refuse(refusal.message);
        const timedOut = (e as Error).name === "TimeoutError";
        const code = ((e as { cause?: { code?: unknown } }).cause?.code as string | undefined) ?? undefined;
        const message = `No answer from ${new URL(url).host}: ${timedOut ? `nothing within ${WEBHOOK_TIMEOUT_MS / 1000} s` : `the connection failed${code ? ` (${code})` : ""}`}.`;
        await prisma.webhookDelivery.update({ where: { id: delivery.id }, data: { error: message, responseStatus: null } });
        throw new Error(message);
      } finally {
        void guard.close().catch(() => {});
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
