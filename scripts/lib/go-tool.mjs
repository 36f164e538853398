// A Go program the scripts run beside Reelsmith (the Temporal CLI, stripe-mock for the tests, versitygw for STORAGE=s3):
// found as $<ENV>, on PATH, in <project>/.bin or in the per-machine cache, else built once per machine with
// `go install` into the per-machine cache and linked into .bin, so a fresh clone on the same machine builds nothing.
// A build runs before any server starts (scripts/test.mjs, scripts/start.mjs, startTestServers) and at a lower CPU
// priority, and it does not block the event loop: on a fresh machine's first run stripe-mock and versitygw were built
// with spawnSync while the Temporal server was starting, which then missed its 60 s (issue 47).
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { MACHINE_CACHE, PROJECT_BIN } from "./paths.mjs";

/** The niceness of a `go install`: below the servers and the test lanes, so a build beside them never starves them. */
export const GO_BUILD_NICE = 15;

export const isExecutable = (f) => {
  try {
    fs.accessSync(f, fs.constants.X_OK);
    return fs.statSync(f).isFile();
  } catch {
    return false;
  }
};

export const onPath = (name) =>
  (process.env.PATH ?? "")
    .split(path.delimiter)
    .map((dir) => dir && path.join(dir, name))
    .find((f) => f && isExecutable(f)) ?? null;

/** The binary `name`: $envVar, PATH, .bin, the per-machine cache; null when none is there. */
export function findGoTool(name, envVar) {
  const candidates = [process.env[envVar], onPath(name), path.join(PROJECT_BIN, name), path.join(MACHINE_CACHE, "bin", name)];
  return candidates.find((c) => c && isExecutable(c)) ?? null;
}

/** Runs `go install module` into `gobin` at GO_BUILD_NICE; resolves with its exit code. */
function goInstall(go, module, gobin) {
  const nice = onPath("nice");
  const [command, args] = nice ? [nice, ["-n", String(GO_BUILD_NICE), go, "install", module]] : [go, ["install", module]];
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: "inherit", env: { ...process.env, GOBIN: gobin, GOFLAGS: "-mod=mod" } });
    child.once("error", reject);
    child.once("exit", (code, signal) => resolve(code ?? signal));
  });
}

/**
 * The binary `name`, built from `module` with `go install` when it is not found. `noGo` is the error's text when Go
 * itself is missing (what the person can do instead); `about` how long the build takes cold.
 */
export async function ensureGoTool({ name, envVar, module, noGo, log, about = "about a minute" }) {
  const found = findGoTool(name, envVar);
  if (found) return found;
  const go = onPath("go");
  if (!go) throw new Error(noGo);
  const gobin = path.join(MACHINE_CACHE, "bin");
  fs.mkdirSync(gobin, { recursive: true });
  log.info(`building ${name}: go install ${module} (first time only, ${about})...`);
  const started = performance.now();
  const status = await goInstall(go, module, gobin);
  const built = path.join(gobin, name);
  if (status !== 0 || !isExecutable(built)) throw new Error(`go install ${module} failed (exit ${status})`);
  log.info(`built ${name} in ${((performance.now() - started) / 1000).toFixed(0)} s: ${built}`);
  fs.mkdirSync(PROJECT_BIN, { recursive: true });
  fs.rmSync(path.join(PROJECT_BIN, name), { force: true });
  fs.symlinkSync(built, path.join(PROJECT_BIN, name));
  return built;
}
