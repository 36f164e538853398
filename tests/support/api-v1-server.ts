// A real HTTP server for the programs' doors in tests: the app's gates (mountGates: tokens, rate limits, the
// cross-site rule) in front of the /api/v1 and /mcp route modules of app/routes.ts, called as the Remix handler
// would call them. For clients that must talk HTTP (the CLI, the MCP SDK's client).
import type { AddressInfo } from "node:net";
import express from "express";
import { ROUTE_GROUPS } from "~/routes";
import { getEnv } from "~/core/env.server";
import { mountGates } from "~/server/host/web-app.server";
import { callRoute } from "./routes";

type Module = { loader?: (args: never) => unknown; action?: (args: never) => unknown };

export async function startApiV1Server(): Promise<{ url: string; close: () => void }> {
  const found: { path: string; file: string }[] = [];
  ROUTE_GROUPS.apiV1(((path: string, file: string) => void found.push({ path, file })) as never);
  const routes = await Promise.all(
    found.map(async ({ path, file }) => ({
      names: [...path.matchAll(/:(\w+)/g)].map((m) => m[1]!),
      pattern: new RegExp(`^${path.replace(/\./g, "\\.").replace(/:(\w+)/g, "([^/]+)")}$`),
      module: (await import(/* @vite-ignore */ `../../app/${file}`)) as Module,
    })),
  );
  const app = express();
  mountGates(app, { env: getEnv(), dev: false, routes: () => [] });
  let url = "";
  app.use(async (req, res) => {
    const pathname = req.path;
    const route = routes.find((r) => r.pattern.test(pathname));
    if (!route) return void res.status(404).json({ message: "Not found" });
    const match = route.pattern.exec(pathname)!;
    const params = Object.fromEntries(route.names.map((n, i) => [n, decodeURIComponent(match[i + 1]!)]));
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) if (typeof value === "string") headers.set(name, value);
    const read = req.method === "GET" || req.method === "HEAD";
    const fn = read ? route.module.loader : route.module.action;
    if (!fn) return void res.status(405).json({ message: "Method not allowed" });
    const answer = await callRoute(fn as never, new Request(`${url}${req.originalUrl}`, { method: req.method, headers, body: read ? undefined : Buffer.concat(chunks) }), params);
    res.status(answer.status);
    answer.headers.forEach((value, name) => res.setHeader(name, value));
    res.end(Buffer.from(await answer.arrayBuffer()));
  });
  const server = app.listen(0, "127.0.0.1");
  await new Promise((r) => server.once("listening", r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, close: () => server.close() };
}
