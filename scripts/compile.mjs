// Compiles the web server and the worker to JavaScript in dist/ (decision 204), so production runs them with node
// alone, no TypeScript loader: `npm run build` (with the web app's `remix vite:build`), `npm start`, the Docker image.
//   dist/server.js          server.ts, with every module of ours it imports (packages stay in node_modules)
//   dist/worker.js          workflows/worker.ts, likewise
//   dist/check-settings.js  the settings check (scripts/check-settings.ts)
//   dist/workflow-bundle.js the workflows (workflows/index.ts) bundled for Temporal's sandbox, with the workflow
//                           interceptors, so the compiled worker does not run webpack at each start (decision 257)
// The video composition (remotion/) stays source: the worker bundles it for Remotion when it starts (decision 204).
import fs from "node:fs";
import path from "node:path";
import * as esbuild from "esbuild";
import { externalPackages } from "./lib/external-packages.mjs";
import { ROOT } from "./lib/paths.mjs";
import { writeWorkflowBundle } from "./lib/workflow-bundle.mjs";

export const DIST = path.join(ROOT, "dist");

const started = performance.now();
fs.rmSync(DIST, { recursive: true, force: true });
const result = await esbuild.build({
  absWorkingDir: ROOT,
  entryPoints: { server: "server.ts", worker: "workflows/worker.ts", "check-settings": "scripts/check-settings.ts" },
  outdir: DIST,
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node24",
  // every npm package is imported from node_modules at run time, as with tsx: the production install provides them
  plugins: [externalPackages],
  sourcemap: true,
  metafile: true,
  logLevel: "warning",
});
// what the compiled files import from node_modules, for the check that a production install has all of it
const external = new Set();
for (const output of Object.values(result.metafile.outputs)) {
  for (const { path: spec, external: isExternal } of output.imports) if (isExternal && !spec.startsWith("node:")) external.add(spec);
}
fs.writeFileSync(path.join(DIST, "packages.json"), `${JSON.stringify([...external].sort(), null, 2)}\n`);

await writeWorkflowBundle("workflows/index.ts", path.join(DIST, "workflow-bundle.js"));

console.log(`compiled the web server and the worker to ${path.relative(process.cwd(), DIST) || "."}/ in ${((performance.now() - started) / 1000).toFixed(1)} s`);
