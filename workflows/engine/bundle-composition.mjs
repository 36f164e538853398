// Builds the composition's bundle in a process of its own, spawned by render-engine.ts: webpack leaves a few hundred
// MiB behind in the process that runs it (measured: the worker's RSS 130 → 496 MiB, still 496 MiB after two idle
// seconds), which a worker would otherwise carry through every render. Prints the served bundle's folder.
//   node bundle-composition.mjs <entry point> <out dir>
import { bundle } from "@remotion/bundler";

const [entryPoint, outDir] = process.argv.slice(2);
if (!entryPoint || !outDir) {
  console.error("usage: node bundle-composition.mjs <entry point> <out dir>");
  process.exit(2);
}
const serveUrl = await bundle({ entryPoint, outDir, enableCaching: true });
process.stdout.write(`\n${JSON.stringify({ serveUrl })}\n`);
