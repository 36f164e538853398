// Status polls answered before Remix (issue 36, docs/decisions/186), against the real PostgreSQL: the fast path
// answers each status path with its own route module's JSON, for the cookie's own user only; a session's caller is
// reused for at most CALLER_CACHE_MS, and a sign-out or a project switch made through the same web process is read
// by the very next poll.
import type { ServerBuild } from "@remix-run/node";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NOT_SIGNED_IN_MESSAGE } from "~/server/api.server";
import { signOut } from "~/server/auth.server";
import { prisma } from "~/core/db.server";
import { getEnv } from "~/core/env.server";
import { setCurrentProject } from "~/core/projects.server";
import { CALLER_CACHE_MS, rememberedCallers } from "~/server/status-request.server";
import { STATUS_PATHS, forgetCallersOnOtherRequests, statusFastPath } from "~/server/host/status-routes.server";
import { securityHeaders } from "~/server/host/web-app.server";
import { createTestUser, sessionCookieFor } from "../support/auth";
import { listen } from "../support/listen";
import { callRoute, listRoutes } from "../support/routes";

type Module = { loader?: (args: never) => unknown };
let modules: Map<string, Module>;
let server: Awaited<ReturnType<typeof listen>>;

async function seedCreator(name: string) {
  const user = await createTestUser(undefined, name);
  const projects = [];
  for (const title of [`${name}'s first`, `${name}'s second`]) {
    const project = await prisma.project.create({ data: { userId: user.id, title, topic: "How bees dance", resolution: "shorts", durationSeconds: 30 } });
    await prisma.script.create({ data: { projectId: project.id, status: "completed", text: `${title}: the bee dances.`, targetWords: 80, startedAt: new Date() } });
    projects.push(project);
  }
  await setCurrentProject(user.id, projects[0]!.id);
  return { user, projects, cookie: await sessionCookieFor(user.id) };
}

beforeAll(async () => {
  modules = new Map();
  for (const { path, file } of await listRoutes()) {
    if ((STATUS_PATHS as readonly string[]).includes(path)) modules.set(path, (await import(/* @vite-ignore */ `../../app/${file}`)) as Module);
  }
  const build = {
    routes: Object.fromEntries([...modules].map(([path, module]) => [path, { id: path, path: path.slice(1), module }])),
    entry: { module: {} },
  } as unknown as ServerBuild;
  const app = express();
  app.use(statusFastPath({ build, context: () => ({}), securityHeaders: securityHeaders({ dev: false }), publicUrl: getEnv().PUBLIC_URL }));
  app.use(forgetCallersOnOtherRequests());
  // two other requests a page makes: opening another project, signing out
  app.post("/api/projects/:id/open", (req, res, next) => {
    void setCurrentProject(String(req.get("x-user")), req.params.id)
      .then(() => res.status(200).json({ ok: true }))
      .catch(next);
  });
  app.post("/api/logout", (req, res, next) => {
    void signOut(new Request("http://localhost/api/logout", { method: "POST", headers: { Cookie: req.get("cookie") ?? "" } }))
      .then((answer) => res.status(answer.status).end())
      .catch(next);
  });
  app.use((_req, res) => void res.status(404).json({ message: "Not here" }));
  server = await listen(app);
});
afterAll(async () => {
  server?.close();
  await prisma.$disconnect();
});

const poll = (path: string, cookie?: string) => server.request("GET", path, cookie ? { Cookie: cookie } : {});

describe("the status fast path", () => {
  it("answers every status path with its route module's JSON, each user their own", async () => {
    expect(modules.size).toBe(STATUS_PATHS.length);
    const ann = await seedCreator("Ann");
    const bob = await seedCreator("Bob");
    for (const path of STATUS_PATHS) {
      for (const who of [ann, bob]) {
        const fast = await poll(path, who.cookie);
        const direct = await callRoute(modules.get(path)!.loader!, new Request(`http://localhost${path}`, { headers: { Cookie: who.cookie } }));
        expect(fast.status, path).toBe(direct.status);
        expect(JSON.parse(fast.body), path).toEqual(await direct.json());
        expect(fast.headers["cache-control"], path).toBe("no-store");
        expect(fast.headers["content-security-policy"], path).toContain("default-src 'self'");
      }
    }
    expect(JSON.parse((await poll("/api/script-status", ann.cookie)).body).title).toBe("Ann's first");
    expect(JSON.parse((await poll("/api/script-status", bob.cookie)).body).title).toBe("Bob's first");
  });

  it("refuses a signed-out or forged cookie with the same 401 as every /api route", async () => {
    const ann = await seedCreator("Cat");
    await poll("/api/script-status", ann.cookie);
    for (const cookie of [undefined, "reelsmith_session=forged", ann.cookie.replace(/.$/, (c) => (c === "A" ? "B" : "A"))]) {
      const answer = await poll("/api/render-progress", cookie);
      expect(answer.status).toBe(401);
      expect(JSON.parse(answer.body)).toEqual({ message: NOT_SIGNED_IN_MESSAGE });
    }
    const head = await server.request("HEAD", "/api/script-status", { Cookie: ann.cookie });
    expect(head.status).toBe(200);
    expect(head.body).toBe("");
  });

  it("reads a project switch made through this process at the next poll, one made elsewhere within CALLER_CACHE_MS", async () => {
    const ann = await seedCreator("Dee");
    expect(JSON.parse((await poll("/api/script-status", ann.cookie)).body).title).toBe("Dee's first");
    expect(rememberedCallers()).toBeGreaterThan(0);

    // through this process: the switch's own request forgets the session's caller
    const switched = await server.request("POST", `/api/projects/${ann.projects[1]!.id}/open`, { Cookie: ann.cookie, "x-user": ann.user.id });
    expect(switched.status).toBe(200);
    const remembered = Date.now();
    expect(JSON.parse((await poll("/api/script-status", ann.cookie)).body).title).toBe("Dee's second");

    // elsewhere (another web process): the remembered caller serves until CALLER_CACHE_MS has passed
    await prisma.user.update({ where: { id: ann.user.id }, data: { currentProjectId: ann.projects[0]!.id } });
    const soon = JSON.parse((await poll("/api/script-status", ann.cookie)).body).title;
    // (on a machine so loaded that the two polls were CALLER_CACHE_MS apart, the second read afresh)
    if (Date.now() - remembered < CALLER_CACHE_MS) expect(soon).toBe("Dee's second");
    await new Promise((r) => setTimeout(r, CALLER_CACHE_MS + 50));
    expect(JSON.parse((await poll("/api/script-status", ann.cookie)).body).title).toBe("Dee's first");
  });

  it("honours a sign-out through this process at the next poll", async () => {
    const ann = await seedCreator("Eve");
    expect((await poll("/api/render-progress", ann.cookie)).status).toBe(200);
    expect((await poll("/api/script-status", ann.cookie)).status).toBe(200);
    expect((await server.request("POST", "/api/logout", { Cookie: ann.cookie })).status).toBe(302);
    const after = await poll("/api/script-status", ann.cookie);
    expect(after.status).toBe(401);
    expect(JSON.parse(after.body)).toEqual({ message: NOT_SIGNED_IN_MESSAGE });
  });

  it("leaves other paths and methods to what comes after", async () => {
    const ann = await seedCreator("Fay");
    expect((await poll("/api/progress-events", ann.cookie)).status).toBe(404);
    expect((await server.request("POST", "/api/script-status", { Cookie: ann.cookie })).status).toBe(404);
  });
});
