// Issue 47, decision 196: no creator reaches the server's network. A plain creator's webhook and OpenAI-compatible
// model server at 127.0.0.1, 10.0.0.5, 169.254.169.254, [::1] or a name that resolves to loopback are refused, in
// Reelsmith's own words, before any request; so is a redirect to loopback and a name that resolves to a public
// address when checked and to loopback when connecting (DNS rebinding: the resolver is injected, since real DNS is
// not ours to control here; names ending in .test never resolve for real, and the injected connector sends the
// "public" address's sockets to a server on loopback, so no packet leaves this machine). The operator's
// ALLOW_PRIVATE_TARGETS=true, or the owner's account, allows them. Only loopback is ever connected to.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { buildConnector } from "undici";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { createOutboundGuard, type ResolveHost } from "~/lib/outbound-fetch.server";
import { createOpenAICompatibleTextProvider } from "~/providers/text/openai-compatible.server";
import { prisma } from "~/core/db.server";
import { getEnv } from "~/core/env.server";
import { getProviderKeys, updateConfig } from "~/core/settings.server";
import { encryptSecret } from "~/core/encryption.server";
import { textProviderFor } from "~/providers/index.server";
import { createWebhookActivities } from "../../workflows/activities/webhooks";
import { FakeOpenAICompatible } from "../fakes/openai-compatible";
import { createTestUser, sessionCookieFor } from "../support/auth";
import { callRoute } from "../support/routes";
import { loadRoutes, type ListedRoute } from "./route-table";

const OWNER = vi.hoisted(() => {
  process.env.OWNER_EMAIL = "owner@private-targets.test";
  delete process.env.ALLOW_PRIVATE_TARGETS;
  return "owner@private-targets.test";
});

const origin = "http://localhost:3000";
/** An address ipaddr.js calls public; only the injected connector ever sees it, and it dials loopback instead. */
const PUBLIC = "93.184.215.14";
const REFUSED = /^That address is on a private network: /;

let routes: ListedRoute[];
const fake = new FakeOpenAICompatible("");
/** A webhook receiver on loopback: what a creator must not reach. */
let receiver: http.Server;
let receiverPort: number;
const received: string[] = [];
/** Stands in for a public host (reached through the injected connector): redirects everything to loopback. */
let redirector: http.Server;
let redirectorPort: number;

const listenOnLoopback = async (server: http.Server) => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return (server.address() as AddressInfo).port;
};

beforeAll(async () => {
  routes = await loadRoutes();
  await fake.start();
  receiver = http.createServer((req, res) => {
    received.push(`${req.method} ${req.url}`);
    req.resume().on("end", () => res.end());
  });
  receiverPort = await listenOnLoopback(receiver);
  redirector = http.createServer((req, res) => {
    const to = req.url!.startsWith("/v1/") ? `${fake.url}${req.url}` : `http://127.0.0.1:${receiverPort}/hook`;
    req.resume().on("end", () => res.writeHead(307, { location: to }).end());
  });
  redirectorPort = await listenOnLoopback(redirector);
});
afterAll(async () => {
  receiver?.close();
  redirector?.close();
  await fake.stop();
  await prisma.$disconnect();
});
beforeEach(() => {
  fake.reset();
  received.length = 0;
});

const moduleOf = (path: string) => routes.find((r) => r.path === path)!.module;

async function creator(email = `creator-${Math.random().toString(36).slice(2)}@example.com`) {
  const user = await createTestUser(email);
  return { user, cookie: await sessionCookieFor(user.id) };
}

const post = (path: string, cookie: string, body: unknown) =>
  new Request(`${origin}${path}`, { method: "POST", headers: { Cookie: cookie, Origin: origin, "Content-Type": "application/json" }, body: JSON.stringify(body) });

const addWebhook = (cookie: string, url: string, allowPrivate: boolean) => callRoute(moduleOf("/api/webhooks").action!, post("/api/webhooks", cookie, { url, events: ["video.ready"], allowPrivate }));
const testConnection = (cookie: string, baseUrl: string) => callRoute(moduleOf("/api/openai-compatible/models").action!, post("/api/openai-compatible/models", cookie, { baseUrl }));

/** The private targets of the issue, as a creator would type them (loopback ones point at servers that are listening). */
const privateHooks = () => [
  `http://127.0.0.1:${receiverPort}/hook`,
  "http://10.0.0.5/hook",
  "http://169.254.169.254/latest/meta-data/",
  `http://[::1]:${receiverPort}/hook`,
  `http://localhost:${receiverPort}/hook`,
];
const privateModelServers = () => [fake.baseUrl, "http://10.0.0.5/v1", "http://169.254.169.254/v1", `http://[::1]:${new URL(fake.url).port}/v1`, `http://localhost:${new URL(fake.url).port}/v1`];

/** Dials loopback for PUBLIC and refuses to dial anything else (so a rebinding that got through would fail loudly). */
function publicHostConnector(dialled: string[]): buildConnector.connector {
  const base = buildConnector({});
  return (options, callback) => {
    dialled.push(options.hostname);
    if (options.hostname !== PUBLIC) return callback(new Error(`the test connector dials only ${PUBLIC}`), null);
    base({ ...options, hostname: "127.0.0.1" }, callback);
  };
}

/** An endpoint row as it might have been saved (no check on the way in) and one delivery to it alone. */
async function deliver(userId: string, url: string, allowPrivate: boolean, network?: Parameters<typeof createWebhookActivities>[0]) {
  const secretEnc = encryptSecret("whsec_test", { userId, field: "webhookSecret" });
  const endpoint = await prisma.webhookEndpoint.create({ data: { userId, url, events: ["video.ready"], allowPrivate, secretEnc } });
  const delivery = await prisma.webhookDelivery.create({ data: { endpointId: endpoint.id, eventId: `evt_${endpoint.id}`, event: "video.ready", payload: { videoId: "v1" } } });
  return { endpoint, deliveryId: delivery.id, run: () => createWebhookActivities(network).sendWebhookDelivery({ deliveryId: delivery.id }) };
}

describe("a plain creator", () => {
  it("cannot add a webhook at a private address: refused in our words, and 'allow private addresses' is refused too", async () => {
    const { user, cookie } = await creator();
    for (const url of privateHooks()) {
      const refused = await addWebhook(cookie, url, false);
      expect(refused.status, url).toBe(400);
      expect((await refused.json()).message, url).toMatch(/^That address is on a private network: .*(loopback|private network range|link-local)/);
      const ticked = await addWebhook(cookie, url, true);
      expect(ticked.status, url).toBe(403);
      expect((await ticked.json()).message).toMatch(/^Only the owner's account may send webhooks to private or loopback addresses/);
    }
    expect(await prisma.webhookEndpoint.count({ where: { userId: user.id } })).toBe(0);
    const listed = await callRoute(moduleOf("/api/webhooks").loader!, new Request(`${origin}/api/webhooks`, { headers: { Cookie: cookie } }));
    expect((await listed.json()).mayAllowPrivate).toBe(false);
    expect(received).toEqual([]);
  });

  it("cannot test a model server at a private address: refused in our words, and the server is never asked", async () => {
    const { cookie } = await creator();
    for (const baseUrl of privateModelServers()) {
      const refused = await testConnection(cookie, baseUrl);
      expect(refused.status, baseUrl).toBe(400);
      const body = await refused.json();
      expect(body.message, baseUrl).toMatch(REFUSED);
      expect(body.field).toBe("baseUrl");
    }
    expect(fake.requests).toEqual([]);
  });

  it("a saved model server at a private address is refused when a script is written, never retried, and never asked", async () => {
    const { user } = await creator();
    await updateConfig(user.id, { openaiBaseUrl: fake.baseUrl, openaiModel: "llama3.2" });
    const keys = await getProviderKeys(user.id);
    expect(keys.openaiCompatible?.allowPrivateNetwork).toBe(false);
    const failed = await textProviderFor(keys)
      .writeScriptChunk({ title: "Tides", topic: "The moon", chunkIndex: 0, totalChunks: 1, targetWords: 40, language: "en" } as never)
      .catch((e: unknown) => e);
    expect((failed as Error).message).toMatch(REFUSED);
    expect((failed as { retryable?: boolean }).retryable).toBe(false);
    expect(fake.requests).toEqual([]);
  });

  it("a webhook saved with 'allow private addresses' by a creator who may not have them is held to public addresses at delivery", async () => {
    const { user } = await creator();
    const { deliveryId, run } = await deliver(user.id, `http://127.0.0.1:${receiverPort}/hook`, true);
    const failed = await run().catch((e: unknown) => e);
    expect((failed as { nonRetryable?: boolean }).nonRetryable).toBe(true);
    expect((failed as Error).message).toMatch(REFUSED);
    expect((await prisma.webhookDelivery.findUniqueOrThrow({ where: { id: deliveryId } })).error).toMatch(REFUSED);
    expect(received).toEqual([]);
  });
});

describe("redirects and DNS rebinding (resolver injected)", () => {
  it("a webhook at a public name that redirects to loopback: the redirect is not followed, loopback never hears it", async () => {
    const { user } = await creator();
    const dialled: string[] = [];
    const { deliveryId, run } = await deliver(user.id, `http://hooks.example.test:${redirectorPort}/hook`, false, {
      network: { resolve: async () => [PUBLIC], connector: publicHostConnector(dialled) },
    });
    await expect(run()).rejects.toThrow("The receiver answered 307; it must answer 2xx.");
    expect(dialled).toEqual([PUBLIC]);
    expect(received).toEqual([]);
    expect((await prisma.webhookDelivery.findUniqueOrThrow({ where: { id: deliveryId } })).responseStatus).toBe(307);
  });

  it("a model server at a public name that redirects to loopback: the redirect's connection is refused, in our words", async () => {
    const dialled: string[] = [];
    const outbound = createOutboundGuard({ allowPrivate: false, resolve: async () => [PUBLIC], connector: publicHostConnector(dialled) });
    const server = createOpenAICompatibleTextProvider({ baseUrl: `http://models.example.test:${redirectorPort}/v1`, model: "llama3.2", outbound });
    const failed = await server.listModels().catch((e: unknown) => e);
    expect((failed as Error).message).toMatch(/^That address is on a private network: 127\.0\.0\.1 \(loopback: this machine\)/);
    expect(dialled).toEqual([PUBLIC]);
    expect(fake.requests).toEqual([]);
  });

  it("a webhook whose name is public when checked and loopback when connecting is refused as it connects", async () => {
    const { user } = await creator();
    const dialled: string[] = [];
    let lookups = 0;
    const resolve: ResolveHost = async () => (lookups++ === 0 ? [PUBLIC] : ["127.0.0.1"]);
    const { deliveryId, run } = await deliver(user.id, `http://rebind.example.test:${receiverPort}/hook`, false, { network: { resolve, connector: publicHostConnector(dialled) } });
    const failed = await run().catch((e: unknown) => e);
    expect(lookups).toBe(2);
    expect((failed as { nonRetryable?: boolean }).nonRetryable).toBe(true);
    expect((failed as Error).message).toMatch(/^That address is on a private network: rebind\.example\.test is 127\.0\.0\.1/);
    expect((await prisma.webhookDelivery.findUniqueOrThrow({ where: { id: deliveryId } })).error).toMatch(REFUSED);
    expect(dialled).toEqual([]);
    expect(received).toEqual([]);
  });

  it("a model server whose name is public when checked and loopback when connecting is refused as it connects", async () => {
    const dialled: string[] = [];
    let lookups = 0;
    const resolve: ResolveHost = async () => (lookups++ === 0 ? [PUBLIC] : ["127.0.0.1"]);
    const outbound = createOutboundGuard({ allowPrivate: false, resolve, connector: publicHostConnector(dialled) });
    const server = createOpenAICompatibleTextProvider({ baseUrl: `http://rebind.example.test:${new URL(fake.url).port}/v1`, model: "llama3.2", outbound });
    const failed = await server.listModels().catch((e: unknown) => e);
    expect(lookups).toBe(2);
    expect((failed as Error).message).toMatch(/^That address is on a private network: rebind\.example\.test is 127\.0\.0\.1/);
    expect(dialled).toEqual([]);
    expect(fake.requests).toEqual([]);
  });
});

describe("who may use private addresses", () => {
  it("the operator's ALLOW_PRIVATE_TARGETS=true: every creator's webhook and model server may be on loopback", async () => {
    const env = getEnv();
    env.ALLOW_PRIVATE_TARGETS = true;
    try {
      const { user, cookie } = await creator();
      const added = await addWebhook(cookie, `http://127.0.0.1:${receiverPort}/hook`, true);
      expect(added.status).toBe(201);
      // a LAN receiver is accepted too (only checked, never connected to here)
      expect((await addWebhook(cookie, "http://10.0.0.5/hook", true)).status).toBe(201);
      const listed = await callRoute(moduleOf("/api/webhooks").loader!, new Request(`${origin}/api/webhooks`, { headers: { Cookie: cookie } }));
      expect((await listed.json()).mayAllowPrivate).toBe(true);
      const { run } = await deliver(user.id, `http://127.0.0.1:${receiverPort}/hook`, true);
      expect(await run()).toEqual({ status: 200 });
      expect(received).toEqual(["POST /hook"]);
      const tested = await testConnection(cookie, fake.baseUrl);
      expect(tested.status).toBe(200);
      expect((await tested.json()).models).toEqual(["gpt-4o-mini", "llama3.2", "qwen2.5:7b"]);
    } finally {
      env.ALLOW_PRIVATE_TARGETS = false;
    }
  });

  it("the owner's account, without the operator's setting", async () => {
    expect(getEnv().ALLOW_PRIVATE_TARGETS).toBe(false);
    const { cookie } = await creator(OWNER);
    expect((await addWebhook(cookie, `http://[::1]:${receiverPort}/hook`, true)).status).toBe(201);
    const tested = await testConnection(cookie, `http://localhost:${new URL(fake.url).port}/v1`);
    expect(tested.status).toBe(200);
    expect(fake.requestsTo(/\/v1\/models$/)).toHaveLength(1);
  });

  it("a model server's failure is told in our words, never with its body", async () => {
    const { cookie } = await creator(`other-${Math.random().toString(36).slice(2)}@example.com`);
    const env = getEnv();
    env.ALLOW_PRIVATE_TARGETS = true;
    try {
      const keyed = new FakeOpenAICompatible("the-right-key");
      await keyed.start();
      try {
        const refused = await testConnection(cookie, keyed.baseUrl);
        expect(refused.status).toBe(502);
        const { message } = await refused.json();
        expect(message).toBe(`The model server at ${new URL(keyed.url).host} refused the API key (HTTP 401). Check the key, or leave it empty for a server that needs none.`);
        expect(message).not.toMatch(/Incorrect API key provided/);
      } finally {
        await keyed.stop();
      }
    } finally {
      env.ALLOW_PRIVATE_TARGETS = false;
    }
  });
});
