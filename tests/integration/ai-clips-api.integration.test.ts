// Programs animate scenes and set transitions (issue 50, decision 244): /api/v1/projects/{id}/ai-clips and
// /transitions with an API token, and the MCP tools estimate_ai_clips, animate_scenes and set_transitions through
// the SDK's client, against the local fakes of Veo and Runway. A budget below the estimate is refused with the
// figures and not one request reaches a service; another creator's video is a 404; a bad body names its field.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import sharp from "sharp";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { prisma } from "~/core/db.server";
import { createProject } from "~/core/projects.server";
import { getTransitions } from "~/core/transitions.server";
import { updateConfig } from "~/core/settings.server";
import { saveMedia } from "~/core/storage.server";
import { action as aiClipsAction, loader as aiClipsLoader } from "~/routes/api-v1/api.v1.projects.$id.ai-clips";
import { action as transitionsAction, loader as transitionsLoader } from "~/routes/api-v1/api.v1.projects.$id.transitions";
import { cancelAnimateScenes } from "~/server/ai-clips.server";
import { createApiToken } from "~/server/api-tokens.server";
import { createTestUser } from "../support/auth";
import { startApiV1Server } from "../support/api-v1-server";
import { callRoute } from "../support/routes";

const { veo, runway } = await vi.hoisted(async () => (await import("../fakes/ai-clips")).startClipFakes());

let base: string;
let close: () => void;

beforeAll(async () => {
  // the MCP SDK's client talks HTTP: the app's gates in front of the /api/v1 and /mcp routes
  ({ url: base, close } = await startApiV1Server());
});
afterAll(async () => {
  close?.();
  await veo.stop();
  await runway.stop();
  await prisma.$disconnect();
});
beforeEach(() => {
  veo.reset();
  runway.reset();
});

/** A creator with a Gemini key, an API token and a 3-scene storyboard (3.4 s voiceovers: a 4 s Veo clip, $0.60, each). */
async function creatorWithScenes() {
  const user = await createTestUser();
  await updateConfig(user.id, { geminiApiKey: veo.apiKey });
  const project = await prisma.project.create({ data: { userId: user.id, title: "Tides", topic: "why the sea rises twice a day", resolution: "landscape", durationSeconds: 30 } });
  const storyboard = await prisma.storyboard.create({ data: { projectId: project.id, title: "Tides", status: "completed" } });
  for (const cellIndex of [0, 1, 2]) {
    const png = await sharp({ create: { width: 64, height: 36, channels: 3, background: { r: 40 * cellIndex, g: 60, b: 120 } } }).png().toBuffer();
    const picture = await saveMedia({ userId: user.id, projectId: project.id, kind: "image", data: png, mimeType: "image/png", extension: "png", width: 64, height: 36 });
    await prisma.storyboardCell.create({
      data: { storyboardId: storyboard.id, cellIndex, imagePrompt: `Scene ${cellIndex}`, voiceoverText: "The moon pulls on the ocean.", estimatedDuration: 3, audioDuration: 3.4, imageUrl: `/api/media/${picture.id}`, imageFileId: picture.id },
    });
  }
  const token = (await createApiToken(user.id, { name: "agent", scope: "full", expiresInDays: 7 })).token;
  return { user, project, token };
}

const v1 = (token: string, path: string, init: RequestInit = {}) =>
  new Request(`http://localhost${path}`, { ...init, headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json", ...(init.headers ?? {}) } });

async function connect(token: string) {
  const client = new Client({ name: "reelsmith-test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
  return client;
}
const textOf = (result: unknown) => ((result as { content?: { text: string }[] }).content ?? []).map((c) => c.text).join("\n");

describe("/api/v1/projects/{id}/ai-clips and /transitions", () => {
  it("estimates, refuses a budget below the estimate with the figures and 0 requests, then starts within budget", async () => {
    const { project, token } = await creatorWithScenes();
    const params = { id: project.id };
    const status = await callRoute(aiClipsLoader as never, v1(token, `/api/v1/projects/${project.id}/ai-clips?provider=veo&cells=0,2`), params);
    expect(status.status).toBe(200);
    const body = (await status.json()) as { estimate: { totalCents: number; perScene: { cellIndex: number; seconds: number; costCents: number }[] }; spend: { videoCents: number }; running: boolean };
    expect(body.estimate.perScene).toEqual([
      { cellIndex: 0, seconds: 4, costCents: 60 },
      { cellIndex: 2, seconds: 4, costCents: 60 },
    ]);
    expect(body.estimate.totalCents).toBe(120);
    expect(body.spend.videoCents).toBe(0);
    expect(body.running).toBe(false);

    const post = (json: unknown) => callRoute(aiClipsAction as never, v1(token, `/api/v1/projects/${project.id}/ai-clips`, { method: "POST", body: JSON.stringify(json) }), params);
    const refused = await post({ provider: "veo", cellIndexes: [0, 2], budget: 1 });
    expect(refused.status).toBe(402);
    expect(refused.headers.get("Content-Type")).toContain("application/problem+json");
    const problem = (await refused.json()) as { detail: string; field: string; figures: { estimateCents: number; budgetCents: number } };
    expect(problem.field).toBe("budget");
    expect(problem.figures).toEqual({ estimateCents: 120, budgetCents: 100 });
    expect(problem.detail).toContain("would cost $1.20");
    expect(problem.detail).toContain("scene 0: 4 s, $0.60");
    expect(problem.detail).toContain("budget of $1.00");
    expect(veo.requests).toHaveLength(0);
    expect(await prisma.clipGeneration.count({ where: { projectId: project.id } })).toBe(0);

    // a bad body names its field; a scene that does not exist is refused; nothing reaches the service
    const noBudget = await post({ provider: "veo", cellIndexes: [0] });
    expect(noBudget.status).toBe(400);
    expect(((await noBudget.json()) as { field: string }).field).toBe("budget");
    const twice = await post({ provider: "veo", cellIndexes: [0, 0], budget: 5 });
    expect(((await twice.json()) as { field: string }).field).toBe("cellIndexes");
    const missing = await post({ provider: "veo", cellIndexes: [7], budget: 5 });
    expect(missing.status).toBe(400);
    expect(veo.requests).toHaveLength(0);

    // within the budget: started (the workflow makes the clips; cancelled here, the worker is not part of this test)
    const started = await post({ provider: "veo", cellIndexes: [0, 2], budget: 1.2 });
    expect(started.status).toBe(202);
    expect(((await started.json()) as { budgetCents: number; started: boolean }).started).toBe(true);
    await cancelAnimateScenes(project);
  });

  it("another creator's video is a 404, whatever the body", async () => {
    const { project } = await creatorWithScenes();
    const stranger = await creatorWithScenes();
    const params = { id: project.id };
    const get = await callRoute(aiClipsLoader as never, v1(stranger.token, `/api/v1/projects/${project.id}/ai-clips`), params);
    expect(get.status).toBe(404);
    const post = await callRoute(aiClipsAction as never, v1(stranger.token, `/api/v1/projects/${project.id}/ai-clips`, { method: "POST", body: "{}" }), params);
    expect(post.status).toBe(404);
    const put = await callRoute(transitionsAction as never, v1(stranger.token, `/api/v1/projects/${project.id}/transitions`, { method: "PUT", body: JSON.stringify({ kind: "fade" }) }), params);
    expect(put.status).toBe(404);
    expect(await prisma.sceneTransitions.count({ where: { projectId: project.id } })).toBe(0);
  });

  it("sets the video's transition and a scene's own, read back by GET; a wrong kind names its field", async () => {
    const { project, token } = await creatorWithScenes();
    const params = { id: project.id };
    const put = (json: unknown) => callRoute(transitionsAction as never, v1(token, `/api/v1/projects/${project.id}/transitions`, { method: "PUT", body: JSON.stringify(json) }), params);
    expect((await put({ kind: "fade", seconds: 0.6, perScene: { "2": "zoom" } })).status).toBe(200);
    const read = await callRoute(transitionsLoader as never, v1(token, `/api/v1/projects/${project.id}/transitions`), params);
    expect(await read.json()).toEqual({ kind: "fade", seconds: 0.6, perScene: { "2": "zoom" } });
    // "video": the scene drops its own choice and follows the video's
    expect(await (await put({ perScene: { "1": "slide", "2": "video" } })).json()).toEqual({ kind: "fade", seconds: 0.6, perScene: { "1": "slide" } });
    const wrong = await put({ kind: "wipe" });
    expect(wrong.status).toBe(400);
    expect(((await wrong.json()) as { field: string }).field).toBe("kind");
    const tooLong = await put({ seconds: 9 });
    expect(((await tooLong.json()) as { field: string }).field).toBe("seconds");
  });
});

describe("a new video's transitions (decision 245)", () => {
  it("a 16:9 video made through the app starts with a half-second crossfade; a 9:16 one with cuts", async () => {
    const user = await createTestUser();
    const wide = await createProject(user.id, { title: "Wide", topic: "tides", resolution: "landscape", durationSeconds: 30 });
    const tall = await createProject(user.id, { title: "Tall", topic: "tides", resolution: "shorts", durationSeconds: 30 });
    expect(await getTransitions(wide.id)).toEqual({ kind: "fade", seconds: 0.5, perScene: {} });
    expect(await getTransitions(tall.id)).toEqual({ kind: "none", seconds: 0.5, perScene: {} });
  });
});

describe("MCP: estimate_ai_clips, animate_scenes, set_transitions", () => {
  it("estimates, refuses a budget below the estimate with the figures and 0 requests, and sets transitions", async () => {
    const { project, token } = await creatorWithScenes();
    const client = await connect(token);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(["estimate_ai_clips", "animate_scenes", "set_transitions"]));
    expect(tools.find((t) => t.name === "animate_scenes")!.inputSchema.required).toEqual(expect.arrayContaining(["projectId", "provider", "cellIndexes", "budget"]));

    const estimate = await client.callTool({ name: "estimate_ai_clips", arguments: { projectId: project.id, provider: "veo" } });
    expect(estimate.isError).toBeFalsy();
    expect((estimate.structuredContent as { estimate: { totalCents: number } }).estimate.totalCents).toBe(180);

    const refused = await client.callTool({ name: "animate_scenes", arguments: { projectId: project.id, provider: "veo", cellIndexes: [0, 1, 2], budget: 0.5 } });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/^402: Animating 3 scenes with Veo 3.1 Fast would cost \$1\.80 .*more than the budget of \$0\.50 given/);
    expect(veo.requests).toHaveLength(0);

    const set = await client.callTool({ name: "set_transitions", arguments: { projectId: project.id, kind: "slide", perScene: { "1": "fade" } } });
    expect(set.isError).toBeFalsy();
    expect(set.structuredContent).toEqual({ kind: "slide", seconds: 0.5, perScene: { "1": "fade" } });
    const wrong = await client.callTool({ name: "set_transitions", arguments: { projectId: project.id, kind: "wipe" } });
    expect(wrong.isError).toBe(true);
    await client.close();
  });
});
