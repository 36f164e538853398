// Remix's options. The Remix Vite plugin does not read this file by itself: vite.config.ts imports it.
// Routes come from the route config in app/routes.ts, not from file names.
import routes from "./app/routes.ts";

/** @type {import("@remix-run/dev").VitePluginConfig} */
export default {
  appDirectory: "app",
  buildDirectory: "build",
  ignoredRouteFiles: ["**/*"],
  routes,
  future: {
    v3_fetcherPersist: true,
    v3_relativeSplatPath: true,
    v3_throwAbortReason: true,
    v3_lazyRouteDiscovery: true,
    v3_singleFetch: true,
    v3_routeConfig: false,
  },
};
