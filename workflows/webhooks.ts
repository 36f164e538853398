// One webhook delivery (issue 32, decision 163), `webhook-delivery-<deliveryId>`: POSTs the signed event to the
// endpoint, retried with back-off by Temporal until it answers 2xx or the attempts run out; the outcome is in the
// delivery log either way. Started (and left to run on its own) by the make-video workflow.
import { ActivityFailure, ApplicationFailure, proxyActivities } from "@temporalio/workflow";
import type { WebhookActivities } from "./activities/webhooks";
import { WEBHOOK_RETRY, WEBHOOK_TARGET_REFUSED, type WebhookDeliveryInput } from "./shared/webhooks";

const { sendWebhookDelivery } = proxyActivities<WebhookActivities>({
  startToCloseTimeout: "30 seconds",
  retry: { ...WEBHOOK_RETRY, nonRetryableErrorTypes: [WEBHOOK_TARGET_REFUSED] },
});
const { markWebhookDeliveryFailed } = proxyActivities<WebhookActivities>({ startToCloseTimeout: "30 seconds" });

export async function webhookDeliveryWorkflow(input: WebhookDeliveryInput): Promise<{ delivered: boolean }> {
  try {
    await sendWebhookDelivery(input);
    return { delivered: true };
  } catch (error) {
    const cause = error instanceof ActivityFailure && error.cause instanceof ApplicationFailure ? error.cause : null;
    await markWebhookDeliveryFailed({ ...input, error: cause?.message ?? (error instanceof Error ? error.message : String(error)) });
    return { delivered: false };
  }
}
