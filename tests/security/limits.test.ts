// Bounded work and the smaller leaks: render length cap, per-user run limits, /healthz for owners and this
// machine (one deep check at a time), rate limits, 405 with Allow for every route's unserved methods, sign-out
// by POST only, media served sandboxed with allow-listed types, CSP, only known sign-in error texts, bounded
// integers.
import { ApplicationFailure } from "@temporalio/common";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderLengthCapSeconds, workerSlots } from "~/lib/limits";
import { SIGN_IN_ERROR_MESSAGES, signInErrorMessage } from "~/lib/sign-in-errors";
import { prisma } from "~/core/db.server";
import { getEnv } from "~/core/env.server";
import { isRefusal, type Refusal } from "~/core/refusal.server";
import { pipelineChecksStarted } from "~/server/health.server";
import { saveMedia } from "~/core/storage.server";
import { getTemporalClient, startWorkflow } from "~/server/temporal.server";
import { mountGates, type RouteEntry } from "~/server/host/web-app.server";
import { createMusicActivities } from "../../workflows/activities/music";
import { PROJECT_NOT_OWNED } from "../../workflows/activities/ownership";
import { prepareRenderPlan } from "../../workflows/activities/render";
import { renderSlotCount, withRenderSlot } from "../../workflows/engine/render-slots";
import { createScriptActivities } from "../../workflows/activities/script";
import { createStoryboardActivities } from "../../workflows/activities/storyboard";
import type { renderVideoWorkflow } from "../../workflows/render";
import type { scriptWorkflow } from "../../workflows/script";
import { listen } from "../support/listen";
import { callRoute } from "../support/routes";
import { loadRoutes, type ListedRoute } from "./route-table";
import { seedUser, type Seeded } from "./seed";

const origin = "http://localhost:3000";
let routes: ListedRoute[];
let user: Seeded;
const started: string[] = [];

beforeAll(async () => {
  routes = await loadRoutes();
  user = await seedUser("Limits");
});
afterAll(async () => {
  const client = await getTemporalClient();
  for (const id of started) await client.workflow.getHandle(id).terminate("test over").catch(() => {});
  await prisma.$disconnect();
});

const moduleOf = (path: string) => routes.find((r) => r.path === path)!.module;

describe("a render longer than the cap", () => {
  it("is refused before any frame is rendered, naming the lengths", async () => {
    const long = await seedUser("LongRender", { sceneSeconds: 25, durationSeconds: 5 });
    expect(renderLengthCapSeconds(5)).toBe(35);
    const refused = await prepareRenderPlan({ renderId: "r", userId: long.user.id, projectId: long.projectId, width: 360, height: 640, captions: false } as never).then(
      () => null,
      (e: unknown) => e,
    );
    expect(refused).toBeInstanceOf(ApplicationFailure);
    expect((refused as ApplicationFailure).nonRetryable).toBe(true);
    expect((refused as Error).message).toMatch(/The voiceovers add up to 51 s, longer than this project's 5 s allows \(at most 35 s\)/);
  });

  it("within the cap, the plan is made", async () => {
    const plan = await prepareRenderPlan({ renderId: "r", userId: user.user.id, projectId: user.projectId, width: 360, height: 640, captions: false } as never);
    expect(plan.scenes).toHaveLength(2);
  });

  it("another user's project cannot be planned (the activity checks the owner named in its input)", async () => {
    const other = await seedUser("OtherOwner");
    await expect(prepareRenderPlan({ renderId: "r", userId: other.user.id, projectId: user.projectId, width: 360, height: 640, captions: false } as never)).rejects.toThrow(
      /no longer exists/,
    );
  });
});

describe("activities act only on the named user's projects", () => {
  it("the storyboard, script and music activities refuse another user's project before any provider is asked", async () => {
    const other = await seedUser("NotTheOwner");
    const providerAsked: string[] = [];
    const providersFor = async (userId: string) => {
      providerAsked.push(userId);
      throw new Error("no provider may be asked for another user's project");
    };
    const storyboard = createStoryboardActivities({ providersFor: providersFor as never });
    const script = createScriptActivities({ textProviderFor: providersFor as never });
    const music = createMusicActivities({ providersFor: providersFor as never } as never);
    const asOther = { userId: other.user.id, projectId: user.projectId };
    const refusals = await Promise.all([
      storyboard.writeStoryboardScenes({ ...asOther, seed: "s" }),
      storyboard.generateSceneImage({ ...asOther, cellIndex: 0 }),
      storyboard.generateSceneVoiceover({ ...asOther, cellIndex: 0 }),
      script.proofreadAndSaveScript({ ...asOther, title: "t", chunks: ["x"] }),
      music.pollMusicGeneration({ ...asOther, trackIds: [], taskId: "t" }),
      music.startMusicGeneration({ ...asOther, trackIds: [], prompt: "p", trackCount: 1, durationSeconds: 30 }),
    ].map((p) => p.then(() => null, (e: unknown) => e)));
    for (const refusal of refusals) {
      expect(refusal).toBeInstanceOf(ApplicationFailure);
      expect((refusal as ApplicationFailure).type).toBe(PROJECT_NOT_OWNED);
      expect((refusal as ApplicationFailure).nonRetryable).toBe(true);
    }
    expect(providerAsked).toEqual([]);
    // the owner's script is untouched
    expect((await prisma.script.findUniqueOrThrow({ where: { projectId: user.projectId } })).text).toMatch(/^Script /);
  });
});

describe("per-user run limits", () => {
  it("a second render at once is refused with 429; the pipeline allows 4 runs at once", async () => {
    const u = await seedUser("Runs");
    const memo = { userId: u.user.id, projectId: u.projectId };
    const start = async (workflowType: "renderVideoWorkflow" | "scriptWorkflow", id: string) => {
      started.push(id);
      return startWorkflow<typeof renderVideoWorkflow | typeof scriptWorkflow>(workflowType, { workflowId: id, args: [{} as never], memo }).then(
        () => 201,
        (e: unknown) => (isRefusal(e) ? e : Promise.reject(e)),
      );
    };
    expect(await start("renderVideoWorkflow", `render-limit-a-${u.projectId}`)).toBe(201);
    await new Promise((r) => setTimeout(r, 1500)); // visibility
    const second = await start("renderVideoWorkflow", `render-limit-b-${u.projectId}`);
    expect((second as Refusal).status).toBe(429);
    expect((second as Refusal).message).toMatch(/already have 1 render in progress/);
    for (let i = 0; i < 4; i++) expect(await start("scriptWorkflow", `script-limit-${i}-${u.projectId}`)).toBe(201);
    await new Promise((r) => setTimeout(r, 1500));
    const fifth = await start("scriptWorkflow", `script-limit-5-${u.projectId}`);
    expect((fifth as Refusal).status).toBe(429);
    // another user is not held back by this one's runs
    const v = await seedUser("OtherRuns");
    started.push(`script-limit-other-${v.projectId}`);
    await expect(startWorkflow<typeof scriptWorkflow>("scriptWorkflow", { workflowId: `script-limit-other-${v.projectId}`, args: [{} as never], memo: { userId: v.user.id } })).resolves.toBeTruthy();
  }, 60_000);

  it("simultaneous starts cannot race past the limit: 12 at once start exactly 4 pipeline runs, 6 renders at once exactly 1", async () => {
    const u = await seedUser("RaceRuns");
    const memo = { userId: u.user.id, projectId: u.projectId };
    const burst = async (workflowType: "renderVideoWorkflow" | "scriptWorkflow", prefix: string, n: number) => {
      const outcomes = await Promise.all(
        Array.from({ length: n }, (_, i) => {
          const id = `${prefix}-${i}-${u.projectId}`;
          started.push(id);
          return startWorkflow<typeof renderVideoWorkflow | typeof scriptWorkflow>(workflowType, { workflowId: id, args: [{} as never], memo }).then(
            () => 201,
            (e: unknown) => (isRefusal(e) ? e.status : Promise.reject(e)),
          );
        }),
      );
      return { started: outcomes.filter((o) => o === 201).length, refused: outcomes.filter((o) => o === 429).length };
    };
    expect(await burst("scriptWorkflow", "race-script", 12)).toEqual({ started: 4, refused: 8 });
    expect(await burst("renderVideoWorkflow", "race-render", 6)).toEqual({ started: 1, refused: 5 });
    // what Temporal itself says is running for this user matches
    const client = await getTemporalClient();
    const ids = started.filter((id) => id.startsWith("race-") && id.endsWith(u.projectId));
    const statuses = await Promise.all(ids.map((id) => client.workflow.getHandle(id).describe().then((d) => d.status.name, () => "NONE")));
    expect(statuses.filter((s) => s === "RUNNING")).toHaveLength(5);
    // a run that ends frees its slot at once (no waiting for the visibility list)
    const runningScript = ids.find((id, i) => id.startsWith("race-script-") && statuses[i] === "RUNNING")!;
    await client.workflow.getHandle(runningScript).terminate("test: free a slot");
    expect(await burst("scriptWorkflow", "race-script-again", 3)).toEqual({ started: 1, refused: 2 });
    // the slots belong to the user: they go with the account
    expect(await prisma.runSlot.count({ where: { userId: u.user.id } })).toBeGreaterThan(0);
    await expect(prisma.runSlot.create({ data: { userId: "no-such-user", kind: "pipeline", workflowId: "w", runId: "r" } })).rejects.toThrow();
  }, 120_000);

  it("the worker's slots follow the machine: one render per 2 cores", () => {
    expect(workerSlots(2)).toEqual({ renders: 1, activities: 3 });
    expect(workerSlots(8)).toEqual({ renders: 4, activities: 12 });
    expect(workerSlots(1).renders).toBe(1);
  });
});

describe("the worker's render slots", () => {
  it("renders beyond the machine's render slots wait their turn (and say how many are ahead); a cancelled one never starts", async () => {
    const slots = renderSlotCount();
    // WORKER_RENDERS, one per worker process unless set (decision 155)
    expect(slots).toBe(Number(process.env.WORKER_RENDERS ?? 1));
    let running = 0;
    let peak = 0;
    const waits: number[] = [];
    const ran: number[] = [];
    const render = (i: number, signal?: AbortSignal) =>
      withRenderSlot(
        async () => {
          running++;
          peak = Math.max(peak, running);
          ran.push(i);
          await new Promise((r) => setTimeout(r, 150));
          running--;
          return i;
        },
        { signal, onWait: (ahead) => waits.push(ahead) },
      );
    const cancelled = new AbortController();
    const all = Array.from({ length: slots + 2 }, (_, i) => render(i));
    const dropped = render(99, cancelled.signal).then(() => "ran", (e: unknown) => (e as Error).name);
    cancelled.abort();
    expect(await Promise.all(all)).toEqual(Array.from({ length: slots + 2 }, (_, i) => i));
    expect(await dropped).toBe("AbortError");
    expect(peak).toBe(slots);
    expect(ran).not.toContain(99);
    expect(waits.slice(0, 2)).toEqual([slots, slots + 1]);
  });
});

describe("/healthz", () => {
  const healthz = () => moduleOf("/healthz").loader!;
  it("anonymous callers get only which parts are up, and ?deep=1 is refused", async () => {
    const plain = await callRoute(healthz(), new Request(`${origin}/healthz`));
    const body = (await plain.json()) as { ok: boolean; parts: Record<string, string> };
    expect(Object.keys(body)).toEqual(["ok", "parts"]);
    expect(Object.keys(body.parts).sort()).toEqual(["database", "temporal", "worker"]);
    expect(Object.values(body.parts).every((state) => state === "up" || state === "down")).toBe(true);
    const deep = await callRoute(healthz(), new Request(`${origin}/healthz?deep=1`));
    expect(deep.status).toBe(403);
    expect((await deep.json()).message).toMatch(/only for the owner account or from this machine/);
  });

  it("a signed-in user who is not the owner is refused ?deep=1 too", async () => {
    const deep = await callRoute(healthz(), new Request(`${origin}/healthz?deep=1`, { headers: { Cookie: user.cookie } }));
    expect(deep.status).toBe(403);
  });

  it("from this machine: the details, and concurrent deep checks share one run", async () => {
    const local = { remoteAddress: "127.0.0.1", proxied: false };
    const call = (q: string) => (healthz() as (a: never) => Promise<Response>)({ request: new Request(`${origin}/healthz${q}`), params: {}, context: local } as never);
    const detailed = await (await call("")).json();
    expect(detailed).toHaveProperty("database");
    const before = pipelineChecksStarted();
    await Promise.all([call("?deep=1"), call("?deep=1"), call("?deep=1")]);
    expect(pipelineChecksStarted() - before).toBe(1);
    // a proxied "local" caller is not trusted
    const proxied = await callRoute(healthz(), new Request(`${origin}/healthz?deep=1`));
    expect(proxied.status).toBe(403);
  }, 60_000);
});

describe("the gates", () => {
  const routeEntries = (): RouteEntry[] => routes.map((r) => ({ id: r.file, path: r.path, index: r.index, module: r.module }));

  it("every route answers a method it does not take with 405, an Allow header and a JSON message", async () => {
    const app = express();
    mountGates(app, { env: getEnv(), dev: false, routes: routeEntries });
    app.use((_req, res) => void res.status(299).send("reached Remix"));
    const { request, close } = await listen(app);
    const checked: string[] = [];
    try {
      for (const route of routes) {
        if (route.path === "*" || route.module.default) continue;
        const url = route.path.replace(/:(\w+)/g, "x");
        const allowed = [...(route.module.loader ? ["GET", "HEAD"] : []), ...(route.module.action ? ["POST", "PUT", "PATCH", "DELETE"] : [])];
        for (const method of ["GET", "POST", "PUT", "PATCH", "DELETE"]) {
          const answer = await request(method, url, { Cookie: user.cookie, "Content-Type": "application/json" }, method === "GET" ? undefined : "{}");
          if (allowed.includes(method)) {
            expect(answer.status, `${method} ${url}`).toBe(299);
          } else {
            checked.push(`${method} ${url}`);
            expect(answer.status, `${method} ${url}`).toBe(405);
            expect(answer.headers.allow).toBe(allowed.join(", "));
            expect(JSON.parse(answer.body).message).toMatch(/does not take/);
          }
        }
      }
    } finally {
      close();
    }
    expect(checked.length).toBeGreaterThan(20);
  });

  it("a route that takes only some writes answers the others itself with 405, an Allow header naming exactly what it takes, and a JSON message", async () => {
    const writes = ["POST", "PUT", "PATCH", "DELETE"];
    // its own user: the writes taken really run (POST /api/logout ends this session)
    const caller = await seedUser("Methods");
    let refused = 0;
    for (const route of routes) {
      if (!route.module.action || route.module.default) continue;
      const url = `${origin}${route.path.replace(/:(\w+)/g, "x")}`;
      const answers = new Map<string, Response>();
      for (const method of writes) {
        const request = new Request(url, { method, headers: { Cookie: caller.cookie, "Content-Type": "application/json", Origin: origin }, body: "{}" });
        answers.set(method, await callRoute(route.module.action, request, Object.fromEntries([...route.path.matchAll(/:(\w+)/g)].map((m) => [m[1]!, "x"]))));
      }
      const refusedHere = [...answers].filter(([, a]) => a.status === 405);
      for (const [method, answer] of refusedHere) {
        refused++;
        const allow = answer.headers.get("Allow")?.split(", ") ?? [];
        expect(allow, `${method} ${route.path}: Allow`).not.toHaveLength(0);
        expect(allow, `${method} ${route.path}`).not.toContain(method);
        // reads are named only when the route has a loader
        if (!route.module.loader) expect(allow.filter((m) => m === "GET" || m === "HEAD"), `${route.path}: reads in Allow`).toEqual([]);
        // every write is either taken (answered something other than 405) or refused, and Allow says which
        for (const w of writes) expect(allow.includes(w), `${route.path}: ${w} in Allow`).toBe(answers.get(w)!.status !== 405);
        expect(answer.headers.get("Content-Type")).toMatch(/application\/json/);
        expect(typeof (await answer.json()).message).toBe("string");
      }
    }
    expect(refused).toBeGreaterThan(60);
  }, 120_000);

  it("pages carry a Content-Security-Policy with frame-ancestors 'none'", async () => {
    const app = express();
    mountGates(app, { env: getEnv(), dev: false, routes: routeEntries });
    app.use((_req, res) => void res.send("<html></html>"));
    const { request, close } = await listen(app);
    const answer = await request("GET", "/dashboard");
    close();
    expect(answer.headers["content-security-policy"]).toMatch(/frame-ancestors 'none'/);
    expect(answer.headers["content-security-policy"]).toMatch(/object-src 'none'/);
    expect(answer.headers["x-frame-options"]).toBe("DENY");
  });

  it("rate limits generation, error-log writes and sign-in (429 / the too-many page)", async () => {
    const app = express();
    const rule = (message: string) => ({ points: 2, durationSeconds: 60, message });
    mountGates(app, { env: getEnv(), dev: false, routes: () => [], rateLimits: { signin: rule("signin"), generation: rule("Too many generation requests."), errorLog: rule("Too many error reports.") } });
    app.use((_req, res) => void res.status(200).json({ ok: true }));
    const { request, close } = await listen(app);
    try {
      const post = (path: string) => request("POST", path, { Cookie: user.cookie, "Content-Type": "application/json" }, "{}");
      expect((await post("/api/generate-script")).status).toBe(200);
      expect((await post("/api/ai/generate-image")).status).toBe(200);
      const limited = await post("/api/music-tracks/generate");
      expect(limited.status).toBe(429);
      expect(Number(limited.headers["retry-after"])).toBeGreaterThan(0);
      expect(JSON.parse(limited.body).message).toBe("Too many generation requests.");
      await post("/api/error-logs");
      await post("/api/error-logs");
      expect((await post("/api/error-logs")).status).toBe(429);
      await request("GET", "/api/login");
      await request("GET", "/api/login");
      const signin = await request("GET", "/api/login");
      expect(signin.status).toBe(302);
      expect(signin.headers.location).toBe("/login-failed?error=too_many_attempts");
    } finally {
      close();
    }
  });
});

describe("smaller leaks", () => {
  it("sign-out is POST only: GET answers 405 with Allow: POST and keeps the session", async () => {
    const u = await seedUser("SignOut");
    const logout = moduleOf("/api/logout");
    const get = await callRoute(logout.loader!, new Request(`${origin}/api/logout`, { headers: { Cookie: u.cookie } }));
    expect(get.status).toBe(405);
    expect(get.headers.get("Allow")).toBe("POST");
    const me = await callRoute(moduleOf("/api/auth/user").loader!, new Request(`${origin}/api/auth/user`, { headers: { Cookie: u.cookie } }));
    expect(me.status).toBe(200);
    const post = await callRoute(logout.action!, new Request(`${origin}/api/logout`, { method: "POST", headers: { Cookie: u.cookie, Origin: origin } }));
    expect(post.status).toBe(302);
    const after = await callRoute(moduleOf("/api/auth/user").loader!, new Request(`${origin}/api/auth/user`, { headers: { Cookie: u.cookie } }));
    expect(after.status).toBe(401);
  });

  it("/api/media sends CSP sandbox, and a type off the allow-list only as a download", async () => {
    const html = await saveMedia({ userId: user.user.id, kind: "image", data: Buffer.from("<script>alert(1)</script>"), mimeType: "text/html", extension: "html" });
    const media = moduleOf("/api/media/:id").loader!;
    const answer = await callRoute(media, new Request(`${origin}/api/media/${html.id}`, { headers: { Cookie: user.cookie } }), { id: html.id });
    expect(answer.status).toBe(200);
    expect(answer.headers.get("Content-Type")).toBe("application/octet-stream");
    expect(answer.headers.get("Content-Disposition")).toMatch(/^attachment;/);
    expect(answer.headers.get("Content-Security-Policy")).toMatch(/^sandbox/);
    const png = await callRoute(media, new Request(`${origin}/api/media/${user.mediaIds[0]}`, { headers: { Cookie: user.cookie } }), { id: user.mediaIds[0]! });
    expect(png.headers.get("Content-Type")).toBe("image/png");
    expect(png.headers.get("Content-Security-Policy")).toMatch(/^sandbox/);
  });

  it("/login-failed shows only known texts: a made-up code or description is never shown", () => {
    expect(signInErrorMessage("invalid_state")).toBe(SIGN_IN_ERROR_MESSAGES.invalid_state);
    expect(signInErrorMessage("Call +1-555-0100 to restore your account")).toBeNull();
    expect(signInErrorMessage("__proto__")).toBeNull();
    expect(signInErrorMessage("toString")).toBeNull();
  });

  it("cellIndex 2147483648 is a 400 naming the field, not a 500", async () => {
    for (const [path, method] of [["/api/ai/generate-image", "POST"], ["/api/ai/generate-voiceover", "POST"], ["/api/storyboard-cell", "PUT"]] as const) {
      const answer = await callRoute(
        moduleOf(path).action!,
        new Request(`${origin}${path}`, { method, headers: { Cookie: user.cookie, Origin: origin, "Content-Type": "application/json" }, body: JSON.stringify({ cellIndex: 2147483648, prompt: "p", text: "t", imagePrompt: "x" }) }),
      );
      expect(answer.status, path).toBe(400);
      expect((await answer.json()).field).toBe("cellIndex");
    }
  });
});
