// The MCP server at /mcp (issue 32, decision 162) through the official SDK's own client over real HTTP, behind the
// app's real gate (mountGates): it lists the tools, whose input schemas are the API's zod schemas, lists voices,
// makes a 10 s Short on the real worker and reads its status until it is done. A read-only token cannot make
// one, another user's video is "404", and no token gets 401 before any tool runs.
import type { AddressInfo } from "node:net";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { action as mcpAction } from "~/routes/api-v1/mcp";
import { createApiToken } from "~/server/api-tokens.server";
import { prisma } from "~/core/db.server";
import { getEnv } from "~/core/env.server";
import { MCP_TOOLS } from "~/server/mcp.server";
import { mountGates } from "~/server/host/web-app.server";
import { createTestUser } from "../support/auth";
import { callRoute } from "../support/routes";
import { startTestWorker } from "../support/temporal";

let stopWorker: () => Promise<void>;
let base: string;
let close: () => void;

beforeAll(async () => {
  stopWorker = (await startTestWorker()).stop;
  const app = express();
  mountGates(app, { env: getEnv(), dev: false, routes: () => [] });
  // the /mcp route module as the Remix handler would call it
  app.all("/mcp", async (req, res) => {
    const chunks: Buffer[] = [];
    try {
      for await (const chunk of req) chunks.push(chunk as Buffer);
    } catch (error) {
      // the client closed the request while it was being read (the SDK's client closing a stream): nothing to answer.
      // Unhandled, it failed a whole run ("aborted", ECONNRESET, stop 64's run).
      if ((error as NodeJS.ErrnoException).code === "ECONNRESET") return;
      throw error;
    }
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) if (typeof value === "string") headers.set(name, value);
    const request = new Request(`${base}${req.originalUrl}`, { method: req.method, headers, body: req.method === "GET" || req.method === "HEAD" ? undefined : Buffer.concat(chunks) });
    const answer = await callRoute(mcpAction as never, request);
    res.status(answer.status);
    answer.headers.forEach((value, name) => res.setHeader(name, value));
    res.end(Buffer.from(await answer.arrayBuffer()));
  });
  const server = app.listen(0, "127.0.0.1");
  await new Promise((r) => server.once("listening", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => server.close();
});
afterAll(async () => {
  close?.();
  await stopWorker?.();
  await prisma.$disconnect();
});

async function connect(token: string | null) {
  const client = new Client({ name: "reelsmith-test", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp`), token ? { requestInit: { headers: { Authorization: `Bearer ${token}` } } } : {});
  await client.connect(transport);
  return client;
}

type Video = {
  id: string;
  projectId: string | null;
  status: string;
  stage: string;
  percent: number;
  error: string | null;
  links: { video: string | null };
  stages: { stage: string; status: string }[];
  remainingSeconds: number | null;
  progressLine: string;
};
const textOf = (result: unknown) => (((result as { content?: { type: string; text: string }[] }).content ?? []).map((c) => c.text).join("\n"));

describe("/mcp with the MCP SDK's client", () => {
  it("lists the tools with the API's schemas, lists voices, makes a 10 s Short and reads its status until done", async () => {
    const owner = await createTestUser();
    const client = await connect((await createApiToken(owner.id, { name: "agent", scope: "full", expiresInDays: 7 })).token);

    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([...MCP_TOOLS].sort());
    const make = tools.find((t) => t.name === "make_video")!;
    expect(Object.keys(make.inputSchema.properties ?? {})).toEqual(expect.arrayContaining(["title", "topic", "script", "format", "duration", "language", "voice", "captions", "imageSource", "music", "thumbnailText", "publishAt"]));
    expect(make.inputSchema.required).toEqual(["title"]);
    expect((make.inputSchema.properties as Record<string, { enum?: string[] }>).format!.enum).toEqual(["16:9", "9:16", "9:16-tiktok"]);

    const voices = await client.callTool({ name: "list_voices", arguments: { language: "en" } });
    expect(voices.isError).toBeFalsy();
    const listed = voices.structuredContent as { voices: { id: string }[]; languages: { code: string }[] };
    expect(listed.voices.length).toBeGreaterThan(0);
    expect(listed.languages.map((l) => l.code)).toContain("fr");

    const refused = await client.callTool({ name: "make_video", arguments: { title: "No topic", format: "square" } });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/format/);

    const made = await client.callTool({ name: "make_video", arguments: { title: "How bees dance", topic: "The waggle dance tells other bees where flowers are", format: "9:16", duration: 10, quality: 720 } });
    expect(made.isError, textOf(made)).toBeFalsy();
    let video = made.structuredContent as Video;
    expect(video.status).toBe("running");
    const deadline = Date.now() + 9 * 60_000;
    // each stage and the whole video's time left, as /api/v1 gives them (issue 53)
    const timesLeft: (number | null)[] = [];
    while (video.status === "running" && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 1000));
      const status = await client.callTool({ name: "get_video_status", arguments: { id: video.id } });
      expect(status.isError, textOf(status)).toBeFalsy();
      video = status.structuredContent as Video;
      expect(video.stages.map((s) => s.stage)).toEqual(["script", "storyboard", "media", "music", "render", "mix", "thumbnail", "upload"]);
      if (video.status === "running") timesLeft.push(video.remainingSeconds);
    }
    expect(video.error).toBeNull();
    expect(video.status).toBe("completed");
    expect(timesLeft.length).toBeGreaterThan(0);
    expect(timesLeft.every((t) => typeof t === "number" && t >= 0)).toBe(true);
    expect(video.remainingSeconds).toBe(0);
    expect(video.links.video).toBe(`/api/v1/videos/${video.id}/video`);

    const list = await client.callTool({ name: "list_videos", arguments: { limit: 5 } });
    expect((list.structuredContent as { videos: Video[] }).videos.map((v) => v.id)).toEqual([video.id]);

    // publishing needs Premium and a YouTube connection: refused in words, nothing started
    const publish = await client.callTool({ name: "publish_video", arguments: { id: video.id } });
    expect(publish.isError).toBe(true);
    expect(textOf(publish)).toMatch(/YouTube|Premium/);
    expect((await prisma.videoRun.findUniqueOrThrow({ where: { id: video.id } })).status).toBe("completed");

    // one video, many outputs: suggested Shorts, a Short made from one, a Spanish version
    const projectId = video.projectId!;
    const suggested = await client.callTool({ name: "suggest_shorts", arguments: { projectId, maxSeconds: 30 } });
    expect(suggested.isError, textOf(suggested)).toBeFalsy();
    const options = suggested.structuredContent as { ready: boolean; suggestions: { fromScene: number; toScene: number; seconds: number }[]; versionLanguages: { code: string }[] };
    expect(options.ready).toBe(true);
    expect(options.suggestions.length).toBeGreaterThan(0);
    for (const s of options.suggestions) expect(s.seconds).toBeLessThanOrEqual(30);
    expect(options.versionLanguages.map((l) => l.code)).toContain("es");
    const backwards = await client.callTool({ name: "make_short", arguments: { projectId, fromScene: 1, toScene: 0 } });
    expect(backwards.isError).toBe(true);
    expect(textOf(backwards)).toMatch(/^400: toScene must not come before fromScene\. \(toScene\)/);
    const pick = options.suggestions[0]!;
    const short = await client.callTool({ name: "make_short", arguments: { projectId, fromScene: pick.fromScene, toScene: pick.toScene, hook: "Bees can dance?" } });
    expect(short.isError, textOf(short)).toBeFalsy();
    const shortMade = short.structuredContent as { projectId: string; scenes: number };
    expect(shortMade.scenes).toBe(pick.toScene - pick.fromScene + 1);
    expect(await prisma.project.findUniqueOrThrow({ where: { id: shortMade.projectId } })).toMatchObject({ userId: owner.id, resolution: "shorts", sourceProjectId: projectId, derivedKind: "short" });
    // the Short rendered by its projectId and followed until its video is there; publishing it is refused in words
    const render = await client.callTool({ name: "render_project", arguments: { projectId: shortMade.projectId, quality: 720 } });
    expect(render.isError, textOf(render)).toBeFalsy();
    expect(render.structuredContent).toMatchObject({ projectId: shortMade.projectId, width: 720, height: 1280 });
    const again = await client.callTool({ name: "render_project", arguments: { projectId: shortMade.projectId } });
    expect(textOf(again)).toMatch(/^409: A render is already in progress/);
    type Status = { kind: string; sourceProjectId: string; render: { active: boolean; error: string | null }; video: { width: number; height: number; durationSeconds: number } | null };
    let status: Status;
    for (;;) {
      status = (await client.callTool({ name: "get_project_status", arguments: { projectId: shortMade.projectId } })).structuredContent as Status;
      if (!status.render.active) break;
      await new Promise((r) => setTimeout(r, 500));
    }
    expect(status).toMatchObject({ kind: "short", sourceProjectId: projectId, render: { error: null }, video: { width: 720, height: 1280 } });
    expect(status.video!.durationSeconds).toBeLessThanOrEqual(30);
    const publishShort = await client.callTool({ name: "publish_project", arguments: { projectId: shortMade.projectId, title: "Bees can dance? #Shorts" } });
    expect(publishShort.isError).toBe(true);
    expect(textOf(publishShort)).toMatch(/YouTube|Premium/);
    const badPublish = await client.callTool({ name: "publish_project", arguments: { projectId: shortMade.projectId, publishAt: "2001-01-01T00:00:00Z" } });
    // the SDK checks the arguments against the tool's schema (its refinements too) before the tool runs
    expect(badPublish.isError).toBe(true);
    expect(textOf(badPublish)).toMatch(/publish_project: The scheduled time must be in the future\. at publishAt/);
    const unknownLanguage = await client.callTool({ name: "make_version", arguments: { projectId, language: "xx" } });
    expect(unknownLanguage.isError).toBe(true);
    expect(textOf(unknownLanguage)).toMatch(/^400: .*"xx".*\(language\)/);
    const version = await client.callTool({ name: "make_version", arguments: { projectId, language: "es", voiceovers: false } });
    expect(version.isError, textOf(version)).toBeFalsy();
    const versionMade = version.structuredContent as { projectId: string; language: string; voiceovers: string };
    expect(versionMade).toMatchObject({ language: "es", voiceovers: "after proofreading" });
    expect(await prisma.project.findUniqueOrThrow({ where: { id: versionMade.projectId } })).toMatchObject({ userId: owner.id, language: "es", sourceProjectId: projectId, derivedKind: "version" });

    // another user's agent: the id is unknown to it
    const stranger = await connect((await createApiToken((await createTestUser()).id, { name: "other", scope: "full", expiresInDays: 7 })).token);
    for (const [name, args] of [
      ["suggest_shorts", { projectId }],
      ["make_short", { projectId, fromScene: 0, toScene: 0 }],
      ["make_version", { projectId, language: "es" }],
      ["get_project_status", { projectId: shortMade.projectId }],
      ["render_project", { projectId: shortMade.projectId }],
      ["publish_project", { projectId: shortMade.projectId }],
    ] as const) {
      const foreignOutput = await stranger.callTool({ name, arguments: args });
      expect(foreignOutput.isError).toBe(true);
      expect(textOf(foreignOutput)).toMatch(/^404: /);
    }
    expect(await prisma.project.count({ where: { sourceProjectId: projectId } })).toBe(2);
    const foreign = await stranger.callTool({ name: "get_video_status", arguments: { id: video.id } });
    expect(foreign.isError).toBe(true);
    expect(textOf(foreign)).toMatch(/^404: Video not found/);
    expect(((await stranger.callTool({ name: "list_videos", arguments: {} })).structuredContent as { videos: Video[] }).videos).toEqual([]);
    await stranger.close();
    await client.close();
  }, 600_000);

  it("a read-only token reads but cannot make a video; no token is refused with 401 before any tool", async () => {
    const owner = await createTestUser();
    const reader = await connect((await createApiToken(owner.id, { name: "reader", scope: "read", expiresInDays: 7 })).token);
    expect((await reader.callTool({ name: "list_videos", arguments: {} })).isError).toBeFalsy();
    const make = await reader.callTool({ name: "make_video", arguments: { title: "T", topic: "t", format: "9:16", duration: 10 } });
    expect(make.isError).toBe(true);
    expect(textOf(make)).toMatch(/^403: .*read-only/);
    expect(await prisma.videoRun.count({ where: { userId: owner.id } })).toBe(0);
    const source = await prisma.project.create({ data: { userId: owner.id, title: "Read only", topic: "t", resolution: "landscape", durationSeconds: 10 } });
    for (const [name, args] of [
      ["make_short", { projectId: source.id, fromScene: 0, toScene: 0 }],
      ["make_version", { projectId: source.id, language: "es" }],
      ["render_project", { projectId: source.id }],
      ["publish_project", { projectId: source.id }],
    ] as const) {
      const refused = await reader.callTool({ name, arguments: args });
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toMatch(/^403: .*read-only/);
    }
    expect(await prisma.project.count({ where: { userId: owner.id } })).toBe(1);
    await reader.close();

    await expect(connect(null)).rejects.toThrow(/401/);
    await expect(connect("rs_pat_" + "x".repeat(43))).rejects.toThrow(/401/);
  });

  it("make_video counts against the generation limit the pages and /api/v1 share: past it, a 429 in words and nothing made", async () => {
    const owner = await createTestUser();
    const { createRateLimiters, RATE_LIMITS } = await import("~/server/host/web-app.server");
    // the minute's generations used up through the other doors (same PostgreSQL counter)
    const consume = createRateLimiters();
    for (let i = 0; i < RATE_LIMITS.generation.points; i++) expect(await consume("generation", owner.id)).toBeNull();
    const agent = await connect((await createApiToken(owner.id, { name: "busy", scope: "full", expiresInDays: 7 })).token);
    const make = await agent.callTool({ name: "make_video", arguments: { title: "One too many", topic: "limits", format: "9:16", duration: 10 } });
    expect(make.isError).toBe(true);
    expect(textOf(make)).toMatch(/^429: Too many generation requests\. Wait a minute, then try again\. \(retry after \d+ s\)/);
    expect(await prisma.videoRun.count({ where: { userId: owner.id } })).toBe(0);
    expect(await prisma.project.count({ where: { userId: owner.id } })).toBe(0);
    await agent.close();
  });
});
