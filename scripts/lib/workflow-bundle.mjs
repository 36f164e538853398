// Temporal's workflow sandbox runs a webpack bundle of the workflows. Made here once, with the workflow interceptors
// inside, for two users: scripts/compile.mjs (dist/workflow-bundle.js, which the compiled worker loads: decision 257)
// and npm test (one bundle per run for every in-process test worker: webpack at each worker start cost about 3 CPU
// seconds, some seventy times a run).
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { ROOT } from "./paths.mjs";

const require = createRequire(path.join(ROOT, "package.json"));
// the same interceptor modules the worker names when it bundles the sources itself (workflows/observability/worker-telemetry.ts)
const INTERCEPTOR_MODULES = [require.resolve("@temporalio/interceptors-opentelemetry/lib/workflow-interceptors")];

/** Bundles the workflows exported by `workflowsPath` (a path under the project's root) into the file `outFile`. */
export async function writeWorkflowBundle(workflowsPath, outFile) {
  const { bundleWorkflowCode } = await import("@temporalio/worker");
  const { code } = await bundleWorkflowCode({
    workflowsPath: path.join(ROOT, workflowsPath),
    workflowInterceptorModules: INTERCEPTOR_MODULES,
    logger: { trace() {}, debug() {}, info() {}, warn: (m) => console.warn(m), error: (m) => console.error(m), log() {} },
  });
  fs.mkdirSync(path.dirname(outFile), { recursive: true });
  fs.writeFileSync(outFile, code);
  return outFile;
}
