// The web server: Express in front of Remix. In development Vite serves the app with hot reload;
// in production the built app is served from build/. Without OIDC_ISSUER the embedded identity provider is
// mounted under /oidc, and then the server is a local tool: it listens on loopback only and refuses a
// non-loopback PUBLIC_URL (app/core/exposure.server.ts). The gates in app/server/host/web-app.server.ts run
// before Remix: security headers, the /api gates (cross-site writes 403, signed-out calls 401, declared body
// size 413), rate limits (429) and 405 for methods a route does not take. The status polls come first of all,
// answered by their own route modules (app/server/host/status-routes.server.ts).
// first of all: every setting checked, a bad one stops the server named (issue 47)
import "~/core/settings-at-start.server";
import http from "node:http";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { createRequestHandler } from "@remix-run/express";
import type { ServerBuild } from "@remix-run/node";
import express from "express";
import { withBusyAnswers } from "~/server/host/busy.server";
import { getEnv } from "~/core/env.server";
import { exposureBanner, exposureProblem, listenHost } from "~/core/exposure.server";
import { EMBEDDED_PROVIDER_PATH, createEmbeddedOidcRouter, isEmbeddedProviderEnabled } from "~/server/host/oidc-provider.server";
import { projectFile } from "~/lib/project-files.server";
import { upgradeLegacySecrets } from "~/core/settings.server";
import { compressedResponses, fingerprintedAssets } from "~/server/host/static-assets.server";
import { forgetCallersOnOtherRequests, statusFastPath } from "~/server/host/status-routes.server";
import { webObservability } from "~/server/host/observability.server";
import { mountGates, requestContext, routesOfBuild, securityHeaders } from "~/server/host/web-app.server";

const env = getEnv();
const problem = exposureProblem(env);
if (problem) {
  console.error(`web: refusing to start. ${problem}`);
  process.exit(1);
}

const app = express();
app.disable("x-powered-by");
const httpServer = http.createServer(app);

const viteDevServer =
  env.NODE_ENV === "production"
    ? undefined
    : await import("vite").then((vite) =>
        vite.createServer({
          server: {
            middlewareMode: true,
            // Hot reload over this server's own port (no second port open to the network).
            hmr: { server: httpServer },
            // Never serve the data directory (secrets, database, media) or key files through /@fs/.
            fs: { deny: [".env", ".env.*", "*.{crt,pem,key}", "**/.git/**", "**/.data/**", `${path.resolve(env.DATA_DIR)}/**`] },
          },
        }),
      );

// every loader and action answers 503 "busy" when the database pool is exhausted (app/server/host/busy.server.ts)
const build = viteDevServer
  ? () => (viteDevServer.ssrLoadModule("virtual:remix/server-build") as Promise<ServerBuild>).then(withBusyAnswers)
  : withBusyAnswers((await import(pathToFileURL(projectFile("build/server/index.js")).href)) as ServerBuild);
const routes = async () => routesOfBuild(typeof build === "function" ? await build() : build);

// JSON log lines with request and trace ids, a span and a histogram observation per request, /metrics (issue 54)
app.use(...webObservability(env, routes));

// The status polls, answered by their route modules' loaders before anything else looks at them (decision 186)
app.use(
  statusFastPath({
    build,
    context: requestContext,
    securityHeaders: securityHeaders({ dev: Boolean(viteDevServer), signInOrigin: env.OIDC_ISSUER ? new URL(env.OIDC_ISSUER).origin : null }),
    publicUrl: env.PUBLIC_URL,
  }),
);

if (viteDevServer) {
  app.use(viteDevServer.middlewares);
} else {
  // Fingerprinted assets can be cached forever, served as the .br/.gz made at build time; the rest briefly.
  app.use("/assets", ...fingerprintedAssets("build/client/assets"));
  app.use(express.static("build/client", { maxAge: "1h" }));
}

// Pages and JSON compressed (brotli, else gzip); server-sent events pass through at once (decision 134).
app.use(compressedResponses());

// Whatever else a session asks for may change what its status polls read: they read afresh (decision 186)
app.use(forgetCallersOnOtherRequests());

mountGates(app, {
  env,
  dev: Boolean(viteDevServer),
  oidcRouter: isEmbeddedProviderEnabled() ? await createEmbeddedOidcRouter() : null,
  oidcPath: EMBEDDED_PROVIDER_PATH,
  routes,
});

app.all("*", createRequestHandler({ build, mode: env.NODE_ENV, getLoadContext: (req, res) => requestContext(req, res) }));

const upgraded = await upgradeLegacySecrets().catch((e: unknown) => {
  console.error("web: could not upgrade saved keys to the user-bound encryption:", e instanceof Error ? e.message : e);
  return 0;
});
if (upgraded) console.log(`web: ${upgraded} saved key(s) re-encrypted, bound to their user and field`);

const host = listenHost(env);
httpServer.listen(env.PORT, host, () => {
  console.log(`web listening on ${host}:${env.PORT}, public address ${env.PUBLIC_URL}`);
  for (const line of exposureBanner(env)) console.log(`web: ${line}`);
});

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  // `on`, not `once`: a second signal (the web cluster's primary forwards what its process group got) changes nothing
  process.on(signal, () => {
    httpServer.close(() => process.exit(0));
    setTimeout(() => process.exit(0), 3000).unref();
  });
}
