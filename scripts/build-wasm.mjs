// Builds the fast renderer's moving-image resampler, workflows/engine/wasm/pan-zoom.as.ts (AssemblyScript), to the
// pan-zoom.wasm committed beside it: `npm run build:wasm` after changing the source. The build is deterministic, and
// the unit test workflows/engine/pan-zoom.test.ts builds it again and fails when the committed file differs.
import fs from "node:fs";
import { fileURLToPath } from "node:url";

export const PAN_ZOOM_SOURCE = fileURLToPath(new URL("../workflows/engine/wasm/pan-zoom.as.ts", import.meta.url));
export const PAN_ZOOM_WASM = fileURLToPath(new URL("../workflows/engine/wasm/pan-zoom.wasm", import.meta.url));

/** The resampler's WebAssembly, built from its source: optimised, SIMD (Node has had it since 16), no runtime (it allocates nothing). */
export async function buildPanZoom() {
  const { default: asc } = await import("assemblyscript/asc");
  const result = await asc.compileString({ "pan-zoom.ts": fs.readFileSync(PAN_ZOOM_SOURCE, "utf8") }, { optimizeLevel: 3, shrinkLevel: 0, runtime: "stub", noAssert: true, enable: ["simd"] });
  if (result.error || !result.binary) throw new Error(`pan-zoom.as.ts did not build: ${result.error?.message ?? ""}\n${result.stderr.toString()}`);
  return Buffer.from(result.binary);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const wasm = await buildPanZoom();
  fs.writeFileSync(PAN_ZOOM_WASM, wasm);
  console.log(`${PAN_ZOOM_WASM}: ${wasm.length} bytes`);
}
