// One rule for a quality above the plan, the same through every door (issue 46, decision 213): a free account asks
// for 4K and each door refuses it in its own shape with the same words: the render page's action as `{ message,
// field }` JSON, /api/v1 as an RFC 9457 problem, MCP as a tool error, and the make-video workflow's render stage as
// a non-retryable Temporal failure (before, /api/v1 and MCP said "2160p ..." and make-video lowered it to 720p).
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { ApplicationFailure } from "@temporalio/common";
import { afterAll, describe, expect, it, vi } from "vitest";

// billing on (no Stripe call is made): a new account is on the free plan, which renders up to 720p
vi.hoisted(() => {
  process.env.STRIPE_SECRET_KEY = "sk_test_reelsmithQualityDoors";
  process.env.STRIPE_WEBHOOK_SECRET = "whsec_reelsmith_quality_doors";
});

const { prisma } = await import("~/core/db.server");
const { createProjectForRun } = await import("~/core/video-run.server");
const { MakeVideoOptionsSchema } = await import("~/lib/make-video-options");
const { createApiToken } = await import("~/server/api-tokens.server");
const { createReelsmithMcpServer } = await import("~/server/mcp.server");
const { getTemporalClient } = await import("~/server/temporal.server");
const renderRoute = await import("~/routes/render/api.render-video");
const { createMakeVideoActivities } = await import("../../workflows/activities/make-video");
const { MAKE_VIDEO_INPUT_ERROR } = await import("../../workflows/shared/make-video");
const { seedRenderableProject } = await import("../fixtures/render-project");
const { apiV1Client } = await import("../support/api-v1-client");
const { createTestUser, sessionCookieFor } = await import("../support/auth");
const { callRoute } = await import("../support/routes");

afterAll(async () => {
  await (await getTemporalClient()).connection.close();
  await prisma.$disconnect();
});

const REFUSAL = "4K 2160p is a Premium feature; the free plan renders up to 720p. Upgrade on the Subscription page (/subscription).";
const url = "http://localhost:3000";
const video = { title: "Why the sea is salty", topic: "Rivers carry salts from rocks to the sea", format: "9:16", duration: 10, quality: 2160 } as const;

describe("a quality above the plan, through every door", () => {
  it("the render page's action: 402 JSON with the words and the field", async () => {
    const user = await createTestUser();
    await seedRenderableProject({ userId: user.id, sceneSeconds: [0.5] });
    const answer = await callRoute(
      renderRoute.action as never,
      new Request(`${url}/api/render-video`, {
        method: "POST",
        headers: { Cookie: await sessionCookieFor(user.id), "Content-Type": "application/json", Origin: url },
        body: JSON.stringify({ quality: 2160 }),
      }),
    );
    expect(answer.status).toBe(402);
    expect(await answer.json()).toMatchObject({ message: REFUSAL, field: "quality" });
    expect(await prisma.renderedVideo.count({ where: { project: { userId: user.id } } })).toBe(0);
  });

  it("/api/v1/videos: a 402 problem with the same words as its detail, and nothing made", async () => {
    const user = await createTestUser();
    const api = await apiV1Client((await createApiToken(user.id, { name: "program", scope: "full", expiresInDays: 7 })).token);
    const refused = await api.POST("/api/v1/videos", { body: video });
    expect(refused.response.status).toBe(402);
    expect(refused.response.headers.get("Content-Type")).toMatch(/^application\/problem\+json/);
    expect(refused.error).toMatchObject({ status: 402, detail: REFUSAL, field: "quality" });
    expect(await prisma.project.count({ where: { userId: user.id } })).toBe(0);
  });

  it("MCP's make_video: a tool error with the same words", async () => {
    const user = await createTestUser();
    const server = createReelsmithMcpServer({ userId: user.id, via: "token", scope: "full" });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: "quality-doors", version: "1.0.0" });
    await client.connect(clientSide);
    const result = (await client.callTool({ name: "make_video", arguments: video })) as { isError?: boolean; content: { text: string }[] };
    await client.close();
    expect(result.isError).toBe(true);
    expect(result.content.map((c) => c.text).join("\n")).toBe(`402: ${REFUSAL} (quality)`);
    expect(await prisma.project.count({ where: { userId: user.id } })).toBe(0);
  });

  it("make-video's render stage: a non-retryable failure with the same words, never a quietly lower quality", async () => {
    // the run began when the account could render 4K; the plan no longer allows it when the render stage starts
    const user = await createTestUser();
    const options = MakeVideoOptionsSchema.parse(video);
    const project = await createProjectForRun(user.id, options, false);
    const run = await prisma.videoRun.create({ data: { userId: user.id, projectId: project.id, options, status: "running", stage: "render", workflowId: `make-video-${project.id}` } });
    const failure = await createMakeVideoActivities()
      .prepareRenderStage({ runId: run.id, userId: user.id, projectId: project.id })
      .then(() => null, (e: unknown) => e);
    expect(failure).toBeInstanceOf(ApplicationFailure);
    expect(failure).toMatchObject({ message: REFUSAL, type: MAKE_VIDEO_INPUT_ERROR, nonRetryable: true, details: [{ status: 402, field: "quality" }] });
    expect(await prisma.renderedVideo.count({ where: { projectId: project.id } })).toBe(0);
  });
});
