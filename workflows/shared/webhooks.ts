// The webhook delivery contract (issue 32, decision 163): the events, the delivery workflow's id and input, and
// the error a retry cannot fix. Shared by workflows/webhooks.ts, its activities and app/core/webhooks.server.ts.
export const WEBHOOK_EVENTS = ["video.ready", "video.failed", "video.published", "post.published", "post.failed"] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

export const webhookDeliveryWorkflowId = (deliveryId: string) => `webhook-delivery-${deliveryId}`;
export type WebhookDeliveryInput = { deliveryId: string };

/** The target is refused (a private address the owner did not allow, the endpoint deleted): not retried. */
export const WEBHOOK_TARGET_REFUSED = "WebhookTargetRefused";

/** Retries with back-off: 10 s, 20 s, 40 s ... up to 8 attempts over about 40 minutes. */
export const WEBHOOK_RETRY = { initialInterval: "10 seconds", backoffCoefficient: 2, maximumInterval: "10 minutes", maximumAttempts: 8 } as const;
