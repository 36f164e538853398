// Compiles the web server and the worker to JavaScript in dist/ (decision 204), so production runs them with node
// alone, no TypeScript loader: `npm run build` (with the web app's `remix vite:build`), `npm start`, the Docker image.
//   dist/server.js          server.ts, with every module of ours it imports (packages stay in node_modules)
//   dist/worker.js          workflows/worker.ts, likewise
//   dist/check-settings.js  the settings check (scripts/check-settings.ts)
//   dist/workflow-bundle.js the workflows (workflows/index.ts) bundled for Temporal's sandbox, with the workflow
//                           interceptors, so the compiled worker does not run webpack at each start (decision 257)
// The video composition (remotion/) stays source: the worker bundles it for Remotion when it starts (decision 204).
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import * as esbuild from "esbuild";
import { ROOT } from "./lib/paths.mjs";
import { writeWorkflowBundle } from "./lib/workflow-bundle.mjs";

export const DIST = path.join(ROOT, "dist");

/** A bare import's package name ("@scope/name" or "name") and the rest of it ("lib/client" or ""). */
function splitSpecifier(spec) {
  const parts = spec.split("/");
  const size = spec.startsWith("@") ? 2 : 1;
  return [parts.slice(0, size).join("/"), parts.slice(size).join("/")];
}

/**
 * Keeps every npm package external, as the tsx runs do, but writes a deep import into a package without an "exports"
 * map as the file it names ("@temporalio/interceptors-opentelemetry/lib/client" becomes ".../lib/client/index.js"):
 * tsx resolves such folder and extensionless imports, Node's ESM loader refuses them (ERR_UNSUPPORTED_DIR_IMPORT).
 */
const externalPackages = {
  name: "external-packages",
  setup(build) {
    const require = createRequire(path.join(ROOT, "package.json"));
    build.onResolve({ filter: /^[^./~]/ }, ({ path: spec }) => {
      if (spec.startsWith("node:")) return { path: spec, external: true };
      const [name, rest] = splitSpecifier(spec);
      if (!rest) return { path: spec, external: true };
      let manifest;
      try {
        manifest = require(`${name}/package.json`);
      } catch {
        return { path: spec, external: true }; // a package whose exports hide package.json: its map resolves the import
      }
      if (manifest.exports) return { path: spec, external: true };
      const file = require.resolve(spec);
      const packageDir = path.dirname(require.resolve(`${name}/package.json`));
      return { path: `${name}/${path.relative(packageDir, file).split(path.sep).join("/")}`, external: true };
    });
  },
};

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
