// A typed /api/v1 client for tests, as a program would build one: openapi-fetch over the types openapi-typescript
// made from the OpenAPI document (reelsmith-api.d.ts). Requests go to the real route modules of app/routes.ts
// (matched by their patterns), and every JSON answer is checked with ajv against the document the server serves.
import { Ajv2020 } from "ajv/dist/2020.js";
import createClient from "openapi-fetch";
import { loader as openApiLoader } from "~/routes/api-v1/api.v1.openapi-json";
import { ROUTE_GROUPS } from "~/routes";
import type { paths } from "./reelsmith-api";
import { callRoute } from "./routes";

export const API_BASE = "http://localhost:3000";

type Module = { loader?: (args: never) => unknown; action?: (args: never) => unknown };

async function v1Routes(): Promise<{ pattern: RegExp; names: string[]; module: Module }[]> {
  const found: { path: string; file: string }[] = [];
  ROUTE_GROUPS.apiV1(((path: string, file: string) => void found.push({ path, file })) as never);
  return Promise.all(
    found.map(async ({ path, file }) => ({
      names: [...path.matchAll(/:(\w+)/g)].map((m) => m[1]!),
      pattern: new RegExp(`^${path.replace(/\./g, "\\.").replace(/:(\w+)/g, "([^/]+)")}$`),
      module: (await import(/* @vite-ignore */ `../../app/${file}`)) as Module,
    })),
  );
}

/** The served OpenAPI document and a validator of an operation's answer against it. */
export async function openApiValidator() {
  const doc = (await (await callRoute(openApiLoader as never, new Request(`${API_BASE}/api/v1/openapi.json`))).json()) as {
    paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema: unknown }> }> }>>;
  };
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  ajv.addFormat("date-time", { validate: (s: string) => !Number.isNaN(Date.parse(s)) });
  ajv.addSchema({ ...doc, $id: "reelsmith" } as never, "reelsmith");
  return {
    doc,
    /** Throws naming the mismatch when `body` is not what the document says `method path` answers with `status`. */
    check(method: string, path: string, status: number, body: unknown) {
      const response = doc.paths[path]?.[method.toLowerCase()]?.responses[String(status)];
      if (!response) throw new Error(`${method} ${path} does not document ${status}`);
      const content = response.content?.["application/json"] ?? response.content?.["application/problem+json"];
      if (!content) throw new Error(`${method} ${path} ${status} documents no JSON body`);
      const pointer = `reelsmith#/paths/${path.replace(/~/g, "~0").replace(/\//g, "~1")}/${method.toLowerCase()}/responses/${status}/content/${response.content?.["application/json"] ? "application~1json" : "application~1problem+json"}/schema`;
      const validate = ajv.getSchema(pointer);
      if (!validate) throw new Error(`no schema at ${pointer}`);
      if (!validate(body)) throw new Error(`${method} ${path} ${status}: ${ajv.errorsText(validate.errors)}`);
    },
  };
}

/** openapi-fetch typed by the document, dispatching to the route modules; `token` goes in Authorization. */
export async function apiV1Client(token: string) {
  const routes = await v1Routes();
  const dispatch = async (input: Request | string | URL, init?: RequestInit): Promise<Response> => {
    const request = input instanceof Request ? input : new Request(input, init);
    const url = new URL(request.url);
    for (const route of routes) {
      const match = route.pattern.exec(url.pathname);
      if (!match) continue;
      const params = Object.fromEntries(route.names.map((n, i) => [n, decodeURIComponent(match[i + 1]!)]));
      const fn = request.method === "GET" || request.method === "HEAD" ? route.module.loader : route.module.action;
      if (!fn) return new Response(null, { status: 405 });
      return callRoute(fn as never, request, params);
    }
    return new Response(null, { status: 404 });
  };
  return createClient<paths>({ baseUrl: API_BASE, fetch: dispatch, headers: { Authorization: `Bearer ${token}` } });
}
