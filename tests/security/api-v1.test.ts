// /api/v1 (issue 32, decisions 160 and 161): every write route refuses no token, a revoked, an expired and a
// read-only token (401/401/401/403 problems, nothing changed); a token acts as its owner only: another user's
// video ids answer 404 on every route (the same as a missing id) and their rows stay as they were.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiToken } from "~/server/api-tokens.server";
import { prisma } from "~/core/db.server";
import { makeVideoWorkflowId } from "../../workflows/shared/make-video";
import { callRoute } from "../support/routes";
import { fillPath, loadRoutes, type ListedRoute } from "./route-table";
import { seedUser, type Seeded } from "./seed";

const origin = "http://localhost:3000";
let v1: ListedRoute[];
let a: Seeded;
let b: Seeded;
let runId: string;
let batchId: string;
let channelId: string;
let ideaId: string;
const tokens: Record<"full" | "read" | "revoked" | "expired" | "aFull", string> = { full: "", read: "", revoked: "", expired: "", aFull: "" };

beforeAll(async () => {
  v1 = (await loadRoutes()).filter((r) => r.path.startsWith("/api/v1/"));
  a = await seedUser("V1A");
  b = await seedUser("V1B");
  // A's video, finished, with links to A's media
  const run = await prisma.videoRun.create({
    data: {
      userId: a.user.id,
      projectId: a.projectId,
      options: { title: `Title ${a.marker}`, topic: `Topic ${a.marker}` },
      status: "completed",
      stage: "done",
      percent: 100,
      workflowId: makeVideoWorkflowId(a.projectId),
      videoUrl: `/api/media/${a.mediaIds[4]}`,
      thumbnailUrl: `/api/media/${a.mediaIds[0]}`,
      completedAt: new Date(),
    },
  });
  runId = run.id;
  batchId = (await prisma.videoBatch.create({ data: { userId: a.user.id, name: `Batch ${a.marker}`, concurrency: 2 } })).id;
  await prisma.videoRun.update({ where: { id: runId }, data: { batchId, batchRow: 1 } });
  // A's channel (issue 52) and an idea in its queue
  channelId = (await prisma.channel.create({ data: { userId: a.user.id, name: `Channel ${a.marker}`, timeZone: "UTC", kit: {}, schedule: [] } })).id;
  ideaId = (await prisma.channelIdea.create({ data: { channelId, userId: a.user.id, title: `Idea ${a.marker}`, topic: "t", position: 1 } })).id;
  const make = async (userId: string, scope: "full" | "read") => (await createApiToken(userId, { name: scope, scope, expiresInDays: 7 }));
  tokens.full = (await make(b.user.id, "full")).token;
  tokens.read = (await make(b.user.id, "read")).token;
  tokens.aFull = (await make(a.user.id, "full")).token;
  const revoked = await make(b.user.id, "full");
  await prisma.apiToken.update({ where: { id: revoked.apiToken.id }, data: { revokedAt: new Date() } });
  tokens.revoked = revoked.token;
  const expired = await make(b.user.id, "full");
  await prisma.apiToken.update({ where: { id: expired.apiToken.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
  tokens.expired = expired.token;
});
afterAll(async () => {
  await prisma.$disconnect();
});

type Call = { method: string; path: string; params: Record<string, string>; body?: string };

/** A's batch, A's project (Shorts and versions, issue 51) or A's video, as the path names. */
const idFor = (path: string) => (path.startsWith("/api/v1/batches/") ? batchId : path.startsWith("/api/v1/projects/") ? a.projectId : runId);

async function call(route: ListedRoute, c: Call, authorization: string | null) {
  const fn = c.method === "GET" ? route.module.loader : route.module.action;
  const headers: Record<string, string> = { "Content-Type": "application/json" };
  if (authorization) headers.Authorization = authorization;
  const answer = await callRoute(fn as never, new Request(`${origin}${fillPath(route.path, c.params)}`, { method: c.method, headers, body: c.body }), c.params);
  return { status: answer.status, type: answer.headers.get("Content-Type") ?? "", text: await answer.text() };
}

/** The ids a path takes: A's video, batch, channel and idea. */
function paramsFor(path: string): Record<string, string> {
  if (!path.includes(":id")) return {};
  if (path.startsWith("/api/v1/channels/")) return { id: channelId, ideaId };
  return { id: idFor(path) };
}
/** The write method of a route's action. */
function writeMethodOf(path: string): string {
  if (path === "/api/v1/videos/:id") return "DELETE";
  if (path === "/api/v1/channels/:id" || path === "/api/v1/channels/:id/ideas/:ideaId") return "PATCH";
  if (path === "/api/v1/projects/:id/transitions") return "PUT";
  return "POST";
}

/** Every write /api/v1 takes, aimed at A's video where the path has an id, with a body that would start work. */
function writeCalls(): { route: ListedRoute; call: Call }[] {
  const calls: { route: ListedRoute; call: Call }[] = [];
  for (const route of v1) {
    if (!route.module.action) continue;
    const params = paramsFor(route.path);
    const methods = [writeMethodOf(route.path)];
    for (const method of methods) calls.push({ route, call: { method, path: route.path, params, body: JSON.stringify({ title: "T", topic: "t", format: "9:16", duration: 10 }) } });
  }
  return calls;
}

describe("/api/v1 write routes", () => {
  it("are POST /videos, DELETE /videos/{id}, POST /videos/{id}/cancel and /publish, POST /batches and /batches/{id}/retry, POST /projects/{id}/shorts, /versions, /render, /publish and /ai-clips, PUT /projects/{id}/transitions, POST /videos/{id}/posts, POST and PATCH /channels", () => {
    expect(writeCalls().map((w) => `${w.call.method} ${w.route.path}`).sort()).toEqual([
      "DELETE /api/v1/videos/:id",
      "PATCH /api/v1/channels/:id",
      "PATCH /api/v1/channels/:id/ideas/:ideaId",
      "POST /api/v1/batches",
      "POST /api/v1/batches/:id/retry",
      "POST /api/v1/channels",
      "POST /api/v1/channels/:id/ideas",
      "POST /api/v1/projects/:id/ai-clips",
      "POST /api/v1/projects/:id/publish",
      "POST /api/v1/projects/:id/render",
      "POST /api/v1/projects/:id/shorts",
      "POST /api/v1/projects/:id/versions",
      "POST /api/v1/videos",
      "POST /api/v1/videos/:id/cancel",
      "POST /api/v1/videos/:id/posts",
      "POST /api/v1/videos/:id/publish",
      "PUT /api/v1/projects/:id/transitions",
    ]);
  });

  it("refuse no token, a malformed, a revoked and an expired token with 401, and a read-only token with 403, as problems; nothing is made or changed", async () => {
    const runsBefore = await prisma.videoRun.count();
    const projectsBefore = await prisma.project.count({ where: { userId: { in: [a.user.id, b.user.id] } } });
    const cases: [string, string | null, number, RegExp][] = [
      ["no token", null, 401, /needs an API token/],
      ["malformed", "Bearer not-a-token", 401, /does not hold a Reelsmith API token/],
      ["revoked", `Bearer ${tokens.revoked}`, 401, /revoked/],
      ["expired", `Bearer ${tokens.expired}`, 401, /expired/],
      ["read-only", `Bearer ${tokens.read}`, 403, /read-only/],
    ];
    let checked = 0;
    for (const { route, call: c } of writeCalls()) {
      for (const [label, authorization, status, detail] of cases) {
        const answer = await call(route, c, authorization);
        expect(answer.status, `${label}: ${c.method} ${c.path}`).toBe(status);
        expect(answer.type).toMatch(/application\/problem\+json/);
        const body = JSON.parse(answer.text) as { status: number; detail: string; title: string; type: string };
        expect(body.status).toBe(status);
        expect(body.detail).toMatch(detail);
        checked++;
      }
    }
    expect(checked).toBe(85);
    expect(await prisma.videoRun.count()).toBe(runsBefore);
    expect(await prisma.project.count({ where: { userId: { in: [a.user.id, b.user.id] } } })).toBe(projectsBefore);
    expect((await prisma.videoRun.findUniqueOrThrow({ where: { id: runId } })).status).toBe("completed");
  });

  it("a read-only token still reads: its owner's list and voices", async () => {
    const list = v1.find((r) => r.path === "/api/v1/videos")!;
    expect((await call(list, { method: "GET", path: list.path, params: {} }, `Bearer ${tokens.read}`)).status).toBe(200);
    const voices = v1.find((r) => r.path === "/api/v1/voices")!;
    const answer = await call(voices, { method: "GET", path: voices.path, params: {} }, `Bearer ${tokens.read}`);
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.text).languages.length).toBeGreaterThan(1);
  });
});

describe("/mcp's write tools", () => {
  it("refuse no token, a malformed, a revoked and an expired token with 401 before any tool runs, and a read-only token's make_video, publish_video and channel writes with 403 in words; another user's channel is not found", async () => {
    const mcp = (await loadRoutes()).find((r) => r.path === "/mcp")!;
    const rpc = (name: string, args: Record<string, unknown>, authorization: string | null) => {
      const headers: Record<string, string> = { "Content-Type": "application/json", Accept: "application/json, text/event-stream" };
      if (authorization) headers.Authorization = authorization;
      const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } });
      return callRoute(mcp.module.action as never, new Request(`${origin}/mcp`, { method: "POST", headers, body }));
    };
    const runsBefore = await prisma.videoRun.count();
    const writes: [string, Record<string, unknown>][] = [
      ["make_video", { title: "T", topic: "t", format: "9:16", duration: 10 }],
      ["publish_video", { id: runId }],
      ["create_channel", { name: "B's channel" }],
      ["add_channel_ideas", { id: channelId, text: "An idea" }],
      ["change_channel_idea", { id: channelId, ideaId, action: "approve" }],
    ];
    for (const [name, args] of writes) {
      for (const [label, authorization, detail] of [
        ["no token", null, /needs an API token/],
        ["malformed", "Bearer nope", /does not hold/],
        ["revoked", `Bearer ${tokens.revoked}`, /revoked/],
        ["expired", `Bearer ${tokens.expired}`, /expired/],
      ] as const) {
        const answer = await rpc(name, args, authorization);
        expect(answer.status, `${label}: ${name}`).toBe(401);
        expect((await answer.json()).detail).toMatch(detail);
      }
      const readOnly = await rpc(name, args, `Bearer ${tokens.read}`);
      expect(readOnly.status).toBe(200);
      const result = (await readOnly.json()) as { result: { isError: boolean; content: { text: string }[] } };
      expect(result.result.isError).toBe(true);
      expect(result.result.content[0]!.text).toMatch(/^403: .*read-only/);
    }
    expect(await prisma.channel.count({ where: { userId: b.user.id } })).toBe(0);
    expect(await prisma.channelIdea.count({ where: { channelId } })).toBe(1);
    // B's full token on A's channel: not found, nothing added
    for (const [name, args] of [
      ["get_channel_calendar", { id: channelId }],
      ["add_channel_ideas", { id: channelId, text: "Sneaked in" }],
      ["change_channel_idea", { id: channelId, ideaId, action: "move", slotAt: "2030-01-01T10:00:00Z" }],
    ] as const) {
      const answer = JSON.stringify(await (await rpc(name, args, `Bearer ${tokens.full}`)).json());
      expect(answer, name).toMatch(/404: Channel not found/);
      expect(answer).not.toContain(`Channel ${a.marker}`);
    }
    expect(await prisma.channelIdea.count({ where: { channelId } })).toBe(1);
    expect(JSON.stringify(await (await rpc("list_channels", {}, `Bearer ${tokens.full}`)).json())).not.toContain(channelId);
    // B's full token on A's video: not found
    const foreign = await rpc("get_video_status", { id: runId }, `Bearer ${tokens.full}`);
    const text = JSON.stringify(await foreign.json());
    expect(text).toMatch(/404: Video not found/);
    for (const secret of a.privateTexts) expect(text).not.toContain(secret);
    expect(await prisma.videoRun.count()).toBe(runsBefore);
  });
});

describe("another user's video through /api/v1", () => {
  it("answers 404 on every route with B's full token, leaks nothing, and leaves A's video and project as they were", async () => {
    const before = JSON.stringify(await prisma.videoRun.findUniqueOrThrow({ where: { id: runId } }));
    const calls: { route: ListedRoute; call: Call }[] = [];
    for (const route of v1.filter((r) => r.path.includes(":id"))) {
      const id = paramsFor(route.path).id!;
      const paramSets = route.path.includes(":file") ? [{ id, file: "video" }, { id, file: "thumbnail" }] : [paramsFor(route.path)];
      for (const params of paramSets) {
        if (route.module.loader) calls.push({ route, call: { method: "GET", path: route.path, params } });
        if (route.module.action) calls.push({ route, call: { method: writeMethodOf(route.path), path: route.path, params } });
      }
    }
    expect(calls.length).toBe(27);
    for (const { route, call: c } of calls) {
      const answer = await call(route, c, `Bearer ${tokens.full}`);
      expect(answer.status, `${c.method} ${fillPath(c.path, c.params)}`).toBe(404);
      for (const text of a.privateTexts) expect(answer.text).not.toContain(text);
    }
    // B's list does not hold it
    const list = v1.find((r) => r.path === "/api/v1/videos")!;
    expect((await call(list, { method: "GET", path: list.path, params: {} }, `Bearer ${tokens.full}`)).text).not.toContain(runId);
    expect(JSON.stringify(await prisma.videoRun.findUniqueOrThrow({ where: { id: runId } }))).toBe(before);
    const cList = v1.find((r) => r.path === "/api/v1/channels")!;
    expect((await call(cList, { method: "GET", path: cList.path, params: {} }, `Bearer ${tokens.full}`)).text).not.toContain(channelId);
    expect(await prisma.channelIdea.findUniqueOrThrow({ where: { id: ideaId } })).toMatchObject({ status: "queued", slotAt: null });
    const bList = v1.find((r) => r.path === "/api/v1/batches")!;
    expect((await call(bList, { method: "GET", path: bList.path, params: {} }, `Bearer ${tokens.full}`)).text).not.toContain(batchId);
    expect(await prisma.project.findUnique({ where: { id: a.projectId } })).not.toBeNull();

    // the same calls with A's own token find it
    const own = v1.find((r) => r.path === "/api/v1/videos/:id")!;
    const mine = await call(own, { method: "GET", path: own.path, params: { id: runId } }, `Bearer ${tokens.aFull}`);
    expect(mine.status).toBe(200);
    expect(JSON.parse(mine.text)).toMatchObject({ id: runId, status: "completed", links: { video: `/api/v1/videos/${runId}/video` } });
    const file = v1.find((r) => r.path === "/api/v1/videos/:id/:file")!;
    const mp4 = await call(file, { method: "GET", path: file.path, params: { id: runId, file: "video" } }, `Bearer ${tokens.aFull}`);
    expect(mp4.status).toBe(200);
    expect(mp4.text).toBe(`video ${a.marker}`);
  });
});
