// The web server: Express in front of Remix. In development Vite serves the app with hot reload;
// in production the built app is served from build/. Later the embedded sign-in provider mounts here too.
import { createRequestHandler } from "@remix-run/express";
import type { ServerBuild } from "@remix-run/node";
import express from "express";
import { getEnv } from "~/server/env.server";

const env = getEnv();
const viteDevServer =
  env.NODE_ENV === "production"
    ? undefined
    : await import("vite").then((vite) => vite.createServer({ server: { middlewareMode: true } }));

const app = express();
app.disable("x-powered-by");

if (viteDevServer) {
  app.use(viteDevServer.middlewares);
} else {
  // Fingerprinted assets can be cached forever; the rest briefly.
  app.use("/assets", express.static("build/client/assets", { immutable: true, maxAge: "1y" }));
  app.use(express.static("build/client", { maxAge: "1h" }));
}

const build = viteDevServer
  ? () => viteDevServer.ssrLoadModule("virtual:remix/server-build") as Promise<ServerBuild>
  : ((await import(new URL("./build/server/index.js", import.meta.url).href)) as ServerBuild);

app.all("*", createRequestHandler({ build, mode: env.NODE_ENV }));

const server = app.listen(env.PORT, () => {
  console.log(`web listening on ${env.PUBLIC_URL}`);
});

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    server.close(() => process.exit(0));
    setTimeout(() => process.exit(0), 3000).unref();
  });
}
