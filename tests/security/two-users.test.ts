// Two users over every route in the route config and every media URL: user B calls every loader and action,
// with every method, with A's ids in the path and in the body. Not one answer may contain A's data, and A's
// rows must be exactly as they were. The route list is generated from app/routes.ts, so a new route is
// covered the moment it is listed.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { prisma } from "~/core/db.server";
import { callRoute } from "../support/routes";
import { fillPath, loadRoutes, paramNames, type ListedRoute } from "./route-table";
import { seedUser, snapshotOf, type Seeded } from "./seed";

const origin = "http://localhost:3000";
let routes: ListedRoute[];
let a: Seeded;
let b: Seeded;

beforeAll(async () => {
  routes = await loadRoutes();
  a = await seedUser("Alice");
  b = await seedUser("Bob");
});

afterAll(async () => {
  await prisma.$disconnect();
});

/** Values to put in a path parameter: every one of A's ids, and a few that are nobody's. */
function paramValues(name: string): string[] {
  if (name === "kind") return ["watermark", "logo", "favicon"];
  return [...a.ids, "does-not-exist", "0", "-1"];
}

function bodiesFor(): unknown[] {
  const ids = { id: a.projectId, projectId: a.projectId, mediaId: a.mediaIds[0], videoId: a.renderId, renderId: a.renderId, fileId: a.mediaIds[0] };
  return [
    {},
    ids,
    { ...ids, cellIndex: 0, prompt: "p", text: "t", imagePrompt: "x", voiceoverText: "y" },
    { ...ids, imageUrl: `/api/media/${a.mediaIds[0]}`, audioUrl: `/api/media/${a.mediaIds[1]}`, videoUrl: `/api/media/${a.mediaIds[4]}` },
    { ids: a.ids, videoIds: [a.renderId], projectIds: [a.projectId] },
  ];
}

const TIMEOUT = Symbol("timeout");
function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T | typeof TIMEOUT> {
  return Promise.race([promise, new Promise<typeof TIMEOUT>((resolve) => setTimeout(() => resolve(TIMEOUT), ms).unref())]);
}

type Call = { method: string; url: string; params: Record<string, string>; body?: unknown };

async function callAsB(route: ListedRoute, call: Call): Promise<{ status: number; text: string } | "timeout"> {
  const fn = call.method === "GET" ? route.module.loader : route.module.action;
  const request = new Request(`${origin}${call.url}`, {
    method: call.method,
    headers: { Cookie: b.cookie, Origin: origin, "Content-Type": "application/json" },
    body: call.body === undefined ? undefined : JSON.stringify(call.body),
  });
  const result = await withTimeout(callRoute(fn as never, request, call.params), 4000);
  if (result === TIMEOUT) return "timeout";
  return { status: result.status, text: await result.text().catch(() => "") };
}

describe("user B over every route, with user A's ids", () => {
  it("the route list comes from app/routes.ts and has every stage's routes", () => {
    const paths = routes.map((r) => r.path);
    expect(paths).toEqual(expect.arrayContaining(["/api/projects/:id", "/api/media/:id", "/api/generate-script", "/api/render-video", "/api/config"]));
    expect(routes.length).toBeGreaterThan(30);
  });

  it("no answer contains A's data, and A's rows are unchanged", async () => {
    const before = await snapshotOf(a.user.id);
    const leaks: string[] = [];
    const calls: string[] = [];
    const statuses: Record<string, number> = {};
    for (const route of routes) {
      // sign-out would end B's session and make every later call a 401 (it is tested on its own)
      if (route.path === "*" || route.path === "/api/logout") continue;
      const names = paramNames(route.path);
      const paramSets: Record<string, string>[] = names.length ? names.flatMap((name) => paramValues(name).map((v) => ({ [name]: v }))) : [{}];
      for (const params of paramSets) {
        const url = fillPath(route.path, params);
        const variants: Call[] = [];
        if (route.module.loader) {
          variants.push({ method: "GET", url, params });
          variants.push({ method: "GET", url: `${url}?id=${a.projectId}&projectId=${a.projectId}&download=1`, params });
        }
        if (route.module.action) {
          for (const method of ["POST", "PUT", "PATCH", "DELETE"]) for (const body of bodiesFor()) variants.push({ method, url, params, body });
        }
        for (const call of variants) {
          const answer = await callAsB(route, call);
          calls.push(`${call.method} ${call.url}`);
          if (answer === "timeout") {
            statuses.timeout = (statuses.timeout ?? 0) + 1;
            continue;
          }
          statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
          // A's ids that B itself sent may be echoed back (e.g. in a 404 message); A's texts never.
          const sent = `${call.url} ${JSON.stringify(call.body ?? "")}`;
          const leaked = [...a.privateTexts, ...a.ids.filter((id) => !sent.includes(id))].filter((text) => answer.text.includes(text));
          for (const text of leaked) leaks.push(`${call.method} ${call.url} (${answer.status}) leaked ${text}`);
        }
      }
    }
    console.log(`two users: ${calls.length} calls as B, answers by status: ${JSON.stringify(statuses)}`);
    expect(leaks).toEqual([]);
    expect(calls.length).toBeGreaterThan(300);
    // B stayed signed in throughout: the calls were judged as B, not refused as signed out
    expect(statuses["401"] ?? 0).toBe(0);
    expect(await snapshotOf(a.user.id)).toEqual(before);
    // B's own current project is still B's
    const bNow = await prisma.user.findUniqueOrThrow({ where: { id: b.user.id } });
    expect(bNow.currentProjectId === null || bNow.currentProjectId === b.projectId || (await prisma.project.findFirst({ where: { id: bNow.currentProjectId, userId: b.user.id } })) !== null).toBe(true);
  }, 600_000);

  it("every media URL of A answers B with 404, and A with the file", async () => {
    const media = routes.find((r) => r.path === "/api/media/:id")!;
    for (const id of a.mediaIds) {
      const asB = await callRoute(media.module.loader as never, new Request(`${origin}/api/media/${id}`, { headers: { Cookie: b.cookie } }), { id });
      expect(asB.status).toBe(404);
      const asA = await callRoute(media.module.loader as never, new Request(`${origin}/api/media/${id}`, { headers: { Cookie: a.cookie } }), { id });
      expect(asA.status).toBe(200);
    }
  });
});
