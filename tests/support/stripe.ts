// Stripe in integration tests: a recording proxy in front of stripe-mock (which the test command starts), so a
// test can see exactly what the real `stripe` client sent; and webhook events signed the way Stripe signs them.
import http from "node:http";
import type { AddressInfo } from "node:net";
import Stripe from "stripe";

export type RecordedStripeRequest = { method: string; path: string; params: URLSearchParams };

/** A local proxy to stripe-mock that records each request (form-encoded body or query string). */
export async function startStripeRecorder(): Promise<{ url: string; requests: RecordedStripeRequest[]; close: () => Promise<void> }> {
  const target = process.env.TEST_STRIPE_API_URL;
  if (!target) throw new Error("TEST_STRIPE_API_URL is not set: run the tests with `npm test -- integration`, which starts stripe-mock.");
  const requests: RecordedStripeRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      const url = new URL(req.url ?? "/", "http://proxy");
      requests.push({ method: req.method ?? "GET", path: url.pathname, params: new URLSearchParams(body.length ? body.toString() : url.search) });
      const upstream = http.request(new URL(req.url ?? "/", target), { method: req.method, headers: { ...req.headers, host: new URL(target).host } }, (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      });
      upstream.on("error", (e) => {
        res.writeHead(502, { "Content-Type": "application/json" });
        res.end(JSON.stringify({ error: { message: e.message } }));
      });
      upstream.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, requests, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

const signer = new Stripe("sk_test_signer_only");

/** An event as Stripe delivers it: its JSON body and the Stripe-Signature header for `secret`. */
export function signedEvent(
  secret: string,
  event: { id: string; type: string; created: number; object: Record<string, unknown> },
  options: { timestamp?: number } = {},
): { body: string; signature: string } {
  const body = JSON.stringify({
    id: event.id,
    object: "event",
    api_version: "2025-10-29.clover",
    created: event.created,
    type: event.type,
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    data: { object: event.object },
  });
  const signature = signer.webhooks.generateTestHeaderString({ payload: body, secret, timestamp: options.timestamp });
  return { body, signature };
}

/** A subscription object as Stripe sends it in customer.subscription.* events (period on its item). */
export function subscriptionObject(input: {
  id: string;
  customer: string;
  status: string;
  cancelAtPeriodEnd?: boolean;
  periodStart: number;
  periodEnd: number;
  userId?: string;
}): Record<string, unknown> {
  return {
    id: input.id,
    object: "subscription",
    customer: input.customer,
    status: input.status,
    cancel_at_period_end: input.cancelAtPeriodEnd ?? false,
    cancel_at: input.cancelAtPeriodEnd ? input.periodEnd : null,
    metadata: input.userId ? { userId: input.userId } : {},
    items: {
      object: "list",
      data: [{ id: `si_${input.id}`, object: "subscription_item", current_period_start: input.periodStart, current_period_end: input.periodEnd }],
    },
  };
}
