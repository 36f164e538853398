import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { vitePlugin as remix } from "@remix-run/dev";
import { defineConfig, type Plugin } from "vite";
import tsconfigPaths from "vite-tsconfig-paths";
import remixConfig from "./remix.config.js";

declare module "@remix-run/node" {
  interface Future {
    v3_singleFetch: true;
  }
}

/**
 * Writes a .br (brotli, best) and a .gz (gzip, best) twin beside each compressible client asset, so the server
 * sends them without compressing per request (app/server/host/static-assets.server.ts; decision 134). Runs when each
 * of Remix's two builds closes: the server build moves its CSS into the client's assets after the client build.
 */
function precompressClientAssets(): Plugin {
  let root = process.cwd();
  return {
    name: "reelsmith-precompress",
    apply: "build",
    configResolved(config) {
      root = config.root;
    },
    closeBundle() {
      const dir = path.join(root, remixConfig.buildDirectory ?? "build", "client", "assets");
      if (!fs.existsSync(dir)) return;
      for (const name of fs.readdirSync(dir)) {
        if (!/\.(js|mjs|css|json|svg|txt|html)$/.test(name)) continue;
        const file = path.join(dir, name);
        const data = fs.readFileSync(file);
        if (data.length < 1024 || fs.existsSync(`${file}.br`)) continue;
        const br = zlib.brotliCompressSync(data, {
          params: { [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length },
        });
        const gz = zlib.gzipSync(data, { level: zlib.constants.Z_BEST_COMPRESSION });
        if (br.length < data.length) fs.writeFileSync(`${file}.br`, br);
        if (gz.length < data.length) fs.writeFileSync(`${file}.gz`, gz);
      }
    },
  };
}

export default defineConfig({
  plugins: [remix(remixConfig), tsconfigPaths(), precompressClientAssets()],
  server: { port: 3000 },
  // Rollup merges chunks under 10 kB into others when that runs no other code on any page (issue 36, decision 134):
  // /create loaded 29 scripts, a dozen of them under 1 kB, each a request, a module to evaluate and a step in
  // the simulated download chain.
  // The icons (lucide-react, one module each) go into one chunk: Rollup gave every icon shared by two pages a
  // chunk of its own, 300-700 bytes each, seven of /storyboard's 29 scripts (decision 134's fifth round).
  build: {
    rollupOptions: {
      output: {
        experimentalMinChunkSize: 10_000,
        manualChunks: (id) => (id.includes("/node_modules/lucide-react/") ? "icons" : undefined),
      },
    },
  },
  // Node-only packages the server bundle must load from node_modules rather than inline.
  ssr: { external: ["@prisma/client", "@prisma/adapter-pg", "pg", "sharp", "@temporalio/client", "@temporalio/workflow", "oidc-provider"] },
});
