// The worker that tests start in a process of their own (tests/support/worker-process-main.ts: the kill, restart and
// fleet tests), compiled once per `npm test` run into one JavaScript file beside the workflow bundles. Started with
// tsx, each of the run's thirty-odd worker processes spent about 6 CPU seconds loading its TypeScript through tsx's
// hooks before it polled; from the compiled file, about a third of that (decision 284). Packages stay in node_modules,
// as for dist/ (scripts/compile.mjs), so the file lives under the project's root, where Node finds them.
import path from "node:path";
import * as esbuild from "esbuild";
import { externalPackages } from "./external-packages.mjs";
import { ROOT } from "./paths.mjs";

export const TEST_WORKER_ENTRY = "tests/support/worker-process-main.ts";
/** The compiled worker's name in a run's bundle folder (TEST_WORKFLOW_BUNDLE_DIR). */
export const TEST_WORKER_BUNDLE = "worker-process-main.js";

export async function writeTestWorkerBundle(outDir) {
  await esbuild.build({
    absWorkingDir: ROOT,
    entryPoints: { [path.basename(TEST_WORKER_BUNDLE, ".js")]: TEST_WORKER_ENTRY },
    outdir: outDir,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node24",
    plugins: [externalPackages],
    // workflows/worker.ts starts the real worker when it is the program's entry (import.meta.main): bundled into this
    // entry it is not
    define: { "import.meta.main": "false" },
    sourcemap: true,
    logLevel: "warning",
  });
  return path.join(outDir, TEST_WORKER_BUNDLE);
}
