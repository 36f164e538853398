// Every route's loader and action (from app/routes.ts) fed what a careless or hostile client sends: malformed
// JSON, wrong types, huge, negative and fractional numbers, numbers past PostgreSQL's integer range, long
// strings, nulls, nested objects, odd query strings. Not one answer may be a 500 (or an uncaught error).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { prisma } from "~/core/db.server";
import { callRoute } from "../support/routes";
import { fillPath, loadRoutes, paramNames, type ListedRoute } from "./route-table";
import { seedUser, type Seeded } from "./seed";

const origin = "http://localhost:3000";
let routes: ListedRoute[];
let user: Seeded;

beforeAll(async () => {
  routes = await loadRoutes();
  user = await seedUser("Fuzz");
});
afterAll(async () => {
  await prisma.$disconnect();
});

// Every field name a route of ours reads, so each value reaches each schema.
const KEYS = [
  "cellIndex", "prompt", "text", "title", "topic", "resolution", "duration", "durationSeconds", "script", "trackCount", "volume",
  "volumeLevel", "imageUrl", "audioUrl", "videoUrl", "fontSize", "fontFamily", "fontValue", "message", "type", "imageData", "fileName",
  "imagePrompt", "voiceoverText", "geminiApiKey", "elevenLabsApiKey", "leonardoApiKey", "sunoApiKey", "pexelsApiKey", "googleOAuthClientId",
  "googleOAuthClientSecret", "elevenLabsVoiceId", "leonardoModelId", "preferredThumbnailFont", "preferredThumbnailFontSize",
  "youtubePreferredCategory", "schedulingDays", "defaultScheduleTime", "lastScheduleDate", "hasCompletedSetup", "id", "projectId",
  "trackId", "videoId", "privacyStatus", "categoryId", "tags", "description", "scheduledAt", "priceId", "plan", "musicTrackId",
  "category", "count", "limit", "page", "index", "imageSource",
];

const VALUES: unknown[] = [
  2147483648, -2147483649, 2147483647, -1, 0.5, 1e308, -1e308, Number.MAX_SAFE_INTEGER + 2, 9007199254740993n.toString(),
  "", " ", "x".repeat(100_000), "💥\u0000\u202e", "<script>alert(1)</script>", "../../etc/passwd", null, true, [], [1, 2], {}, { nested: { deep: [1] } },
];

const RAW_BODIES = ["{", "[", "null", "\"str\"", "123", "true", "{\"a\":", "\u0000\u0001", "{\"__proto__\":{\"polluted\":1}}", "x".repeat(2000)];

function jsonBodies(): string[] {
  const bodies = VALUES.map((v) => JSON.stringify(Object.fromEntries(KEYS.map((k) => [k, v]))));
  // one field wrong at a time, the others plausible
  for (const key of ["cellIndex", "duration", "trackCount", "volume", "fontSize", "preferredThumbnailFontSize", "count"]) {
    for (const v of [2147483648, -1, 1e308, "1", null]) bodies.push(JSON.stringify({ cellIndex: 0, prompt: "p", text: "t", title: "T", topic: "t", resolution: "9:16", duration: 30, [key]: v }));
  }
  return [...bodies, ...RAW_BODIES];
}

const QUERIES = ["", "?category=%00", "?category=premade&category=cloned", "?deep=1", "?download=1&filename=../../x", "?id=2147483648", "?page=-1&limit=1e308", "?cellIndex=2147483648"];

const TIMEOUT = Symbol("timeout");
const withTimeout = <T,>(p: Promise<T>, ms: number) =>
  Promise.race([p, new Promise<typeof TIMEOUT>((resolve) => setTimeout(() => resolve(TIMEOUT), ms).unref())]);

describe("every route, fed malformed input", () => {
  it("answers with a 4xx (or success), never a 500 or an uncaught error", async () => {
    const failures: string[] = [];
    let calls = 0;
    const paramsFor = (route: ListedRoute) =>
      Object.fromEntries(paramNames(route.path).map((name) => [name, name === "kind" ? "watermark" : user.projectId]));
    const contentTypes = ["application/json", "text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=xyz"];
    for (const route of routes) {
      if (route.path === "/api/logout") continue; // would end the session the sweep runs under
      const params = paramsFor(route);
      const base = fillPath(route.path, params);
      const record = async (label: string, run: () => Promise<Response>) => {
        calls++;
        try {
          const answer = await withTimeout(run(), 1500);
          if (answer !== TIMEOUT && answer.status >= 500 && answer.status !== 502 && answer.status !== 503) failures.push(`${label} -> ${answer.status} ${await answer.text().catch(() => "")}`.slice(0, 300));
        } catch (e) {
          failures.push(`${label} -> threw ${(e as Error)?.stack?.split("\n").slice(0, 3).join(" | ") ?? e}`.slice(0, 400));
        }
      };
      if (route.module.loader) {
        for (const q of QUERIES) {
          await record(`GET ${base}${q}`, () => callRoute(route.module.loader as never, new Request(`${origin}${base}${q}`, { headers: { Cookie: user.cookie } }), params));
        }
      }
      if (route.module.action) {
        const all = jsonBodies();
        const some = [...all.slice(0, 6), ...RAW_BODIES.slice(0, 3)];
        // every body as JSON by POST; a sample by the other methods and with the other content types
        const plan: [string, string, string[]][] = [
          ["POST", "application/json", all],
          ...["PUT", "PATCH", "DELETE"].map((m): [string, string, string[]] => [m, "application/json", some]),
          ...contentTypes.slice(1).map((t): [string, string, string[]] => ["POST", t, some]),
        ];
        for (const [method, contentType, bodies] of plan) {
          for (const body of bodies) {
            await record(`${method} ${base} [${contentType}] ${body.slice(0, 60)}`, () =>
              callRoute(route.module.action as never, new Request(`${origin}${base}`, { method, body, headers: { Cookie: user.cookie, Origin: origin, "Content-Type": contentType } }), params),
            );
          }
        }
      }
    }
    console.log(`fuzz: ${calls} calls over ${routes.length} routes`);
    expect(failures).toEqual([]);
    expect(calls).toBeGreaterThan(1000);
  }, 900_000);
});
