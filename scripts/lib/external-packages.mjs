// The esbuild plugin that keeps every npm package external when our TypeScript is compiled to JavaScript (dist/ by
// scripts/compile.mjs, the test worker by scripts/lib/test-worker-bundle.mjs): packages are imported from
// node_modules at run time, as with tsx.
import { createRequire } from "node:module";
import path from "node:path";
import { ROOT } from "./paths.mjs";

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
export const externalPackages = {
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

