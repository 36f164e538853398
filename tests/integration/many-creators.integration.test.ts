// Many creators at once (issue 36): with a pool of 5 connections, 50 creators pressing Create at the same moment
// (POST /create, then /api/generate-script, as the page does) all get their project and their script run; a
// free account sending 10 creations at once ends with exactly its one project and a clear 402 for each of the
// others; 50 pressing Generate All at once all start, and one creator's 10 presses start one run. Before the
// fix, the creations held every connection inside their transactions and waited for each other until Prisma's
// 5 s timeout (P2028), as 17 of 20 did in the issue.
import "../support/small-pool";
import "../support/billing-on";
import { Client, Connection } from "@temporalio/client";
import { afterAll, describe, expect, it } from "vitest";
import { action as createAction } from "~/routes/script/create";
import { action as generateScriptAction } from "~/routes/script/api.generate-script";
import { action as generateAllAction } from "~/routes/storyboard/api.generate-all-content";
import { LIMIT_MESSAGES } from "~/core/permissions.server";
import { prisma } from "~/core/db.server";
import { createTestUser, sessionCookieFor } from "../support/auth";
import { callRoute } from "../support/routes";

const BASE = "http://localhost:3000";
const details = (n: number) => ({ title: `Why octopuses have three hearts ${n}`, topic: "How an octopus moves blood through its body", resolution: "9:16", duration: "30" });

function createRequest(cookie: string, n: number) {
  return new Request(`${BASE}/create`, {
    method: "POST",
    headers: { Cookie: cookie, "Content-Type": "application/x-www-form-urlencoded", Origin: BASE },
    body: new URLSearchParams(details(n)).toString(),
  });
}
const jsonPost = (path: string, cookie: string, body: unknown) =>
  new Request(`${BASE}${path}`, { method: "POST", headers: { Cookie: cookie, "Content-Type": "application/json", Origin: BASE }, body: JSON.stringify(body) });

async function creators(count: number) {
  return Promise.all(
    Array.from({ length: count }, async () => {
      const user = await createTestUser();
      return { user, cookie: await sessionCookieFor(user.id) };
    }),
  );
}

/** Terminates what this file started on its task queue, so no run stays open on the shared test server. */
afterAll(async () => {
  const connection = await Connection.connect({ address: process.env.TEMPORAL_ADDRESS! });
  const client = new Client({ connection });
  for await (const run of client.workflow.list({ query: `TaskQueue = "${process.env.TEMPORAL_TASK_QUEUE}" AND ExecutionStatus = "Running"` })) {
    await client.workflow.getHandle(run.workflowId, run.runId).terminate("test over").catch(() => {});
  }
  await connection.close();
  await prisma.$disconnect();
});

describe("50 creators pressing Create at once, on a pool of 5 connections", () => {
  it("gives every creator a project and a script run, and no error", async () => {
    const people = await creators(50);
    const created = await Promise.all(people.map(({ cookie }, n) => callRoute(createAction, createRequest(cookie, n))));
    const createStatuses = created.map((r) => r.status);
    expect(createStatuses.filter((s) => s !== 200)).toEqual([]);

    const scripts = await Promise.all(people.map(({ cookie }, n) => callRoute(generateScriptAction, jsonPost("/api/generate-script", cookie, details(n)))));
    expect(scripts.map((r) => r.status).filter((s) => s !== 202)).toEqual([]);

    const projects = await prisma.project.findMany({ where: { userId: { in: people.map((p) => p.user.id) } }, select: { userId: true, title: true } });
    expect(projects).toHaveLength(50);
    expect(new Set(projects.map((p) => p.userId)).size).toBe(50);
    const users = await prisma.user.findMany({ where: { id: { in: people.map((p) => p.user.id) } }, select: { currentProjectId: true } });
    expect(users.every((u) => u.currentProjectId)).toBe(true);
  });
});

describe("a free account sending 10 creations at once", () => {
  it("ends with exactly its one project; the other nine are told why, with 402", async () => {
    const { user, cookie } = (await creators(1))[0]!;
    const answers = await Promise.all(Array.from({ length: 10 }, (_, n) => callRoute(createAction, createRequest(cookie, n))));
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses).toEqual([200, ...Array(9).fill(402)]);
    const refused = await Promise.all(answers.filter((r) => r.status === 402).map((r) => r.json() as Promise<{ ok: boolean; message: string }>));
    for (const body of refused) expect(body).toEqual({ ok: false, message: LIMIT_MESSAGES.projects });
    expect(await prisma.project.count({ where: { userId: user.id } })).toBe(1);
  });
});

async function withStoryboard(userId: string, n: number) {
  const project = await prisma.project.create({ data: { userId, title: `Bees ${n}`, topic: "How bees dance", resolution: "shorts", durationSeconds: 30 } });
  await prisma.user.update({ where: { id: userId }, data: { currentProjectId: project.id } });
  const storyboard = await prisma.storyboard.create({ data: { projectId: project.id, title: project.title, status: "completed" } });
  await prisma.storyboardCell.createMany({
    data: Array.from({ length: 3 }, (_, cellIndex) => ({
      storyboardId: storyboard.id,
      cellIndex,
      imagePrompt: `A honeybee on a comb, scene ${cellIndex + 1}`,
      voiceoverText: `Scene ${cellIndex + 1}: the bee dances to show where the flowers are.`,
      estimatedDuration: 4,
    })),
  });
  return project;
}

describe("Generate All pressed at once", () => {
  it("starts one run for each of 50 creators, with no error", async () => {
    const people = await creators(50);
    await Promise.all(people.map(({ user }, n) => withStoryboard(user.id, n)));
    const answers = await Promise.all(people.map(({ cookie }) => callRoute(generateAllAction, jsonPost("/api/generate-all-content", cookie, {}))));
    expect(answers.map((r) => r.status).filter((s) => s !== 202)).toEqual([]);
    const bodies = await Promise.all(answers.map((r) => r.json() as Promise<{ started: boolean }>));
    expect(bodies.filter((b) => b.started)).toHaveLength(50);
  });

  it("starts exactly one run when one creator presses it 10 times at once; the others say it is already running", async () => {
    const { user, cookie } = (await creators(1))[0]!;
    await withStoryboard(user.id, 0);
    const answers = await Promise.all(Array.from({ length: 10 }, () => callRoute(generateAllAction, jsonPost("/api/generate-all-content", cookie, {}))));
    expect(answers.map((r) => r.status)).toEqual(Array(10).fill(202));
    const bodies = await Promise.all(answers.map((r) => r.json() as Promise<{ started: boolean; processing?: boolean }>));
    expect(bodies.filter((b) => b.started)).toHaveLength(1);
    expect(bodies.filter((b) => !b.started && b.processing)).toHaveLength(9);
  });
});
