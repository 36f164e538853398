// Finds the `temporal` CLI (which carries the dev server and its Web UI), or builds it with Go.
// Order: $TEMPORAL_CLI, PATH, <project>/.bin, the per-machine cache; otherwise `go install` into the
// per-machine cache (about 4 minutes cold, seconds with warm Go caches) and link it into .bin.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { MACHINE_CACHE, PROJECT_BIN } from "./paths.mjs";
import { logger } from "./log.mjs";

export const TEMPORAL_CLI_MODULE = "github.com/temporalio/cli/cmd/temporal@v1.5.1";
const log = logger("temporal");

const isExecutable = (f) => {
  try {
    fs.accessSync(f, fs.constants.X_OK);
    return fs.statSync(f).isFile();
  } catch {
    return false;
  }
};

function onPath(name) {
  for (const dir of (process.env.PATH ?? "").split(path.delimiter)) {
    if (dir && isExecutable(path.join(dir, name))) return path.join(dir, name);
  }
  return null;
}

export function findTemporalCli() {
  const candidates = [
    process.env.TEMPORAL_CLI,
    onPath("temporal"),
    path.join(PROJECT_BIN, "temporal"),
    path.join(MACHINE_CACHE, "bin", "temporal"),
  ];
  return candidates.find((c) => c && isExecutable(c)) ?? null;
}

export function ensureTemporalCli() {
  const found = findTemporalCli();
  if (found) return found;
  const go = onPath("go");
  if (!go) {
    throw new Error(
      "The Temporal CLI was not found and Go is not installed to build it.\n" +
        "Install one of them:\n" +
        "  - Go 1.25 or newer (https://go.dev/dl/ or `apt-get install golang`), then run this again; or\n" +
        "  - the Temporal CLI (https://docs.temporal.io/cli#install), on PATH or at .bin/temporal; or\n" +
        "  - set TEMPORAL_ADDRESS to use a Temporal server you already run.",
    );
  }
  const gobin = path.join(MACHINE_CACHE, "bin");
  fs.mkdirSync(gobin, { recursive: true });
  log.info(`building the Temporal CLI: go install ${TEMPORAL_CLI_MODULE} (first time only, a few minutes)...`);
  const r = spawnSync(go, ["install", TEMPORAL_CLI_MODULE], {
    stdio: "inherit",
    env: { ...process.env, GOBIN: gobin, GOFLAGS: "-mod=mod" },
  });
  const built = path.join(gobin, "temporal");
  if (r.status !== 0 || !isExecutable(built)) throw new Error(`go install ${TEMPORAL_CLI_MODULE} failed (exit ${r.status})`);
  fs.mkdirSync(PROJECT_BIN, { recursive: true });
  fs.rmSync(path.join(PROJECT_BIN, "temporal"), { force: true });
  fs.symlinkSync(built, path.join(PROJECT_BIN, "temporal"));
  return built;
}
