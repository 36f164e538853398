// One webhook delivery (issue 32, decision 163), `webhook-delivery-<deliveryId>`: POSTs the signed event to the
// endpoint, retried with back-off by Temporal until it answers 2xx or the attempts run out; the outcome is in the
// delivery log either way. Started (and left to run on its own) by the make-video and platform post workflows,
// through startWebhookDeliveries.
import { ActivityFailure, ApplicationFailure, ParentClosePolicy, proxyActivities, startChild } from "@temporalio/workflow";
import type { WebhookActivities } from "./activities/webhooks";
import { WEBHOOK_RETRY, WEBHOOK_TARGET_REFUSED, webhookDeliveryWorkflowId, type WebhookDeliveryInput } from "./shared/webhooks";

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

/**
 * From a workflow: one delivery workflow per queued delivery of `event` (the activity that queued them answers their
 * ids), each abandoned by its parent so it outlives it; the memo names the event and its owner for the Temporal UI.
 */
export async function startWebhookDeliveries(deliveryIds: string[], event: string, owner: string): Promise<void> {
  for (const deliveryId of deliveryIds) {
    await startChild(webhookDeliveryWorkflow, {
      workflowId: webhookDeliveryWorkflowId(deliveryId),
      args: [{ deliveryId }],
      parentClosePolicy: ParentClosePolicy.ABANDON,
      memo: { webhook: event, owner },
    });
  }
}
