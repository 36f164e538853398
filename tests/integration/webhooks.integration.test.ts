// Webhooks (issue 32, decision 163) on the real worker: an event is POSTed to the creator's endpoint signed with
// its secret, a failed attempt is retried by Temporal until the receiver answers 2xx, and the delivery log says
// so. The verifier example in the docs (examples/verify-webhook.mjs) accepts the delivery and rejects it
// altered, replayed or checked with another secret. Loopback targets are refused unless the endpoint allows them and
// its creator may (decision 196): this file's receiver is on loopback, so it runs with the operator's
// ALLOW_PRIVATE_TARGETS=true, set deliberately (tests/security/private-targets.test.ts covers everyone else).
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Client } from "@temporalio/client";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { prisma } from "~/core/db.server";
import { createWebhookEndpoint, deleteWebhookEndpoint, emitWebhookEvent, listWebhookEndpoints } from "~/core/webhooks.server";
import type { Refusal } from "~/core/refusal.server";
import { verifyReelsmithWebhook } from "../../examples/verify-webhook.mjs";
import { webhookDeliveryWorkflow } from "../../workflows/webhooks";
import { webhookDeliveryWorkflowId } from "../../workflows/shared/webhooks";
import { createTestUser } from "../support/auth";
import { startTestWorker } from "../support/temporal";

vi.hoisted(() => {
  process.env.ALLOW_PRIVATE_TARGETS = "true";
});

type Received = { headers: http.IncomingHttpHeaders; body: string };
let stopWorker: () => Promise<void>;
let temporal: Client;
let taskQueue: string;
let receiver: http.Server;
let receiverUrl: string;
const received: Received[] = [];
let failFirst = 1;

beforeAll(async () => {
  const worker = await startTestWorker();
  stopWorker = worker.stop;
  temporal = worker.client;
  taskQueue = worker.taskQueue;
  receiver = http.createServer((req, res) => {
    let body = "";
    req.on("data", (d) => (body += d));
    req.on("end", () => {
      received.push({ headers: req.headers, body });
      res.statusCode = failFirst-- > 0 ? 500 : 200;
      res.end();
    });
  });
  receiver.listen(0, "127.0.0.1");
  await new Promise((r) => receiver.once("listening", r));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
});
afterAll(async () => {
  receiver?.close();
  await stopWorker?.();
  await prisma.$disconnect();
});

describe("webhooks", () => {
  it("refuse loopback and private targets unless the owner allows them, and non-http URLs", async () => {
    const user = await createTestUser();
    await expect(createWebhookEndpoint(user.id, { url: receiverUrl, events: ["video.ready"], allowPrivate: false })).rejects.toMatchObject({ status: 400 });
    const refused = (await createWebhookEndpoint(user.id, { url: "http://10.1.2.3/hook", events: ["video.ready"], allowPrivate: false }).catch((e: unknown) => e)) as Refusal;
    expect(refused.message).toMatch(/^That address is on a private network: 10\.1\.2\.3 \(a private network range\)/);
    const ftp = (await createWebhookEndpoint(user.id, { url: "ftp://example.com/x", events: ["video.ready"], allowPrivate: false }).catch((e: unknown) => e)) as Refusal;
    expect(ftp.message).toMatch(/https:\/\//);
    expect(await prisma.webhookEndpoint.count({ where: { userId: user.id } })).toBe(0);
  });

  it("deliver a signed event, retried by Temporal after a 500, logged; the docs' verifier accepts it and rejects it altered, replayed or with another secret", async () => {
    const user = await createTestUser();
    const { secret, endpoint } = await createWebhookEndpoint(user.id, { url: receiverUrl, events: ["video.ready", "video.failed"], allowPrivate: true });
    expect(secret).toMatch(/^whsec_/);
    expect(JSON.stringify(await prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } }))).not.toContain(secret);
    // an event the endpoint did not ask for makes no delivery
    expect(await emitWebhookEvent(user.id, "video.published", { id: "x" })).toEqual([]);

    received.length = 0;
    failFirst = 1;
    const [deliveryId] = await emitWebhookEvent(user.id, "video.ready", { id: "run_1", title: "Bees", links: { video: "/api/v1/videos/run_1/video" } });
    const outcome = await temporal.workflow.execute(webhookDeliveryWorkflow, { taskQueue, workflowId: webhookDeliveryWorkflowId(deliveryId!), args: [{ deliveryId: deliveryId! }] });
    expect(outcome).toEqual({ delivered: true });
    expect(received).toHaveLength(2);
    const [first, second] = received as [Received, Received];
    // the same event on every attempt, so a receiver can drop duplicates
    expect(second.body).toBe(first.body);
    const event = JSON.parse(second.body) as { id: string; type: string; data: { title: string } };
    expect(event).toMatchObject({ type: "video.ready", data: { title: "Bees" } });
    expect(second.headers["reelsmith-event"]).toBe("video.ready");
    expect(second.headers["reelsmith-delivery"]).toBe(event.id);

    const signature = second.headers["reelsmith-signature"] as string;
    expect(verifyReelsmithWebhook(secret, signature, second.body)).toBe(true);
    expect(verifyReelsmithWebhook(secret, signature, second.body.replace("Bees", "Wasps"))).toBe(false);
    expect(verifyReelsmithWebhook(secret, signature, second.body, { now: Date.now() + 10 * 60_000 })).toBe(false);
    expect(verifyReelsmithWebhook("whsec_another", signature, second.body)).toBe(false);
    expect(verifyReelsmithWebhook(secret, undefined, second.body)).toBe(false);

    const [log] = await listWebhookEndpoints(user.id);
    expect(log!.deliveries[0]).toMatchObject({ event: "video.ready", status: "delivered", attempts: 2, responseStatus: 200, error: null });

    // another user cannot remove it
    const stranger = await createTestUser();
    await expect(deleteWebhookEndpoint(stranger.id, endpoint.id)).rejects.toMatchObject({ status: 404 });
  }, 120_000);

  it("a target that became private since it was added is refused at delivery, not retried, and logged as failed", async () => {
    const user = await createTestUser();
    const { endpoint } = await createWebhookEndpoint(user.id, { url: receiverUrl, events: ["video.failed"], allowPrivate: true });
    await prisma.webhookEndpoint.update({ where: { id: endpoint.id }, data: { allowPrivate: false } });
    received.length = 0;
    const [deliveryId] = await emitWebhookEvent(user.id, "video.failed", { id: "run_2" });
    const outcome = await temporal.workflow.execute(webhookDeliveryWorkflow, { taskQueue, workflowId: webhookDeliveryWorkflowId(deliveryId!), args: [{ deliveryId: deliveryId! }] });
    expect(outcome).toEqual({ delivered: false });
    expect(received).toHaveLength(0);
    const delivery = await prisma.webhookDelivery.findUniqueOrThrow({ where: { id: deliveryId! } });
    expect(delivery).toMatchObject({ status: "failed", attempts: 1 });
    expect(delivery.error).toMatch(/^That address is on a private network: 127\.0\.0\.1 \(loopback: this machine\)/);
  }, 60_000);
});
