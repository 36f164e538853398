// The web server: Express in front of Remix. In development Vite serves the app with hot reload;
// in production the built app is served from build/. Without OIDC_ISSUER the embedded identity provider is
// mounted under /oidc. Every /api call passes two gates first: writes from another site are refused (403),
// and signed-out calls get 401 JSON, except the sign-in flow and webhooks.
import { createRequestHandler } from "@remix-run/express";
import type { ServerBuild } from "@remix-run/node";
import express from "express";
import { CROSS_SITE_MESSAGE, NOT_SIGNED_IN_MESSAGE, isCrossSiteWrite, isPublicApiPath } from "~/server/api.server";
import { getEnv } from "~/server/env.server";
import { EMBEDDED_PROVIDER_PATH, createEmbeddedOidcRouter, isEmbeddedProviderEnabled } from "~/server/oidc-provider.server";
import { getSessionUserId } from "~/server/session.server";

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

if (isEmbeddedProviderEnabled()) {
  app.use(EMBEDDED_PROVIDER_PATH, await createEmbeddedOidcRouter());
}

app.use("/api", async (req, res, next) => {
  try {
    const allowedOrigins = [`${req.protocol}://${req.get("host")}`, new URL(env.PUBLIC_URL).origin];
    if (isCrossSiteWrite({ method: req.method, origin: req.get("origin") ?? null, secFetchSite: req.get("sec-fetch-site") ?? null, allowedOrigins })) {
      res.status(403).json({ message: CROSS_SITE_MESSAGE });
      return;
    }
    if (isPublicApiPath(req.originalUrl.split("?")[0]!)) return next();
    if (!(await getSessionUserId(req.get("cookie") ?? null))) {
      res.status(401).json({ message: NOT_SIGNED_IN_MESSAGE });
      return;
    }
    next();
  } catch (e) {
    next(e);
  }
});

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
