// A Go program the scripts run beside Reelsmith (stripe-mock for the tests, versitygw for STORAGE=s3): found like
// the Temporal CLI ($<ENV>, PATH, <project>/.bin, the per-machine cache), else built once per machine with
// `go install` into the per-machine cache and linked into .bin, so a fresh clone on the same machine builds nothing.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { MACHINE_CACHE, PROJECT_BIN } from "./paths.mjs";

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

/**
 * The binary `name`, built from `module` with `go install` when it is not found. `noGo` is the error's text when Go
 * itself is missing (what the person can do instead).
 */
export function ensureGoTool({ name, envVar, module, noGo, log }) {
  const found = findGoTool(name, envVar);
  if (found) return found;
  const go = onPath("go");
  if (!go) throw new Error(noGo);
  const gobin = path.join(MACHINE_CACHE, "bin");
  fs.mkdirSync(gobin, { recursive: true });
  log.info(`building ${name}: go install ${module} (first time only, about a minute)...`);
  const r = spawnSync(go, ["install", module], { stdio: "inherit", env: { ...process.env, GOBIN: gobin, GOFLAGS: "-mod=mod" } });
  const built = path.join(gobin, name);
  if (r.status !== 0 || !isExecutable(built)) throw new Error(`go install ${module} failed (exit ${r.status})`);
  fs.mkdirSync(PROJECT_BIN, { recursive: true });
  fs.rmSync(path.join(PROJECT_BIN, name), { force: true });
  fs.symlinkSync(built, path.join(PROJECT_BIN, name));
  return built;
}
