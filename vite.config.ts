import { vitePlugin as remix } from "@remix-run/dev";
import { defineConfig } from "vite";
import tsconfigPaths from "vite-tsconfig-paths";
import remixConfig from "./remix.config.js";

declare module "@remix-run/node" {
  interface Future {
    v3_singleFetch: true;
  }
}

export default defineConfig({
  plugins: [remix(remixConfig), tsconfigPaths()],
  server: { port: 3000 },
  // Node-only packages the server bundle must load from node_modules rather than inline.
  ssr: { external: ["@prisma/client", "@prisma/adapter-pg", "pg", "sharp", "@temporalio/client", "@temporalio/workflow", "oidc-provider"] },
});
