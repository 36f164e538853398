// Finds versitygw (Versity's S3 gateway, Apache-2.0: a real S3 API over a POSIX folder), the object store that
// `STORAGE=s3 npm start` and the tests run on (decision 150). Found like the Temporal CLI ($VERSITYGW, PATH,
// <project>/.bin, the per-machine cache), else built with `go install` into the per-machine cache (about a
// minute cold, once per machine) and linked into .bin.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { MACHINE_CACHE, PROJECT_BIN } from "./paths.mjs";
import { logger } from "./log.mjs";

/** v1.8.0 builds with Go 1.25+ and has no `replace` in its go.mod, so `go install` accepts it. */
export const VERSITYGW_MODULE = "github.com/versity/versitygw/cmd/versitygw@v1.8.0";
const log = logger("object-store");

const isExecutable = (f) => {
  try {
    fs.accessSync(f, fs.constants.X_OK);
    return fs.statSync(f).isFile();
  } catch {
    return false;
  }
};

const onPath = (name) =>
  (process.env.PATH ?? "")
    .split(path.delimiter)
    .map((dir) => dir && path.join(dir, name))
    .find((f) => f && isExecutable(f)) ?? null;

export function findVersitygw() {
  const candidates = [process.env.VERSITYGW, onPath("versitygw"), path.join(PROJECT_BIN, "versitygw"), path.join(MACHINE_CACHE, "bin", "versitygw")];
  return candidates.find((c) => c && isExecutable(c)) ?? null;
}

export function ensureVersitygw() {
  const found = findVersitygw();
  if (found) return found;
  const go = onPath("go");
  if (!go) {
    throw new Error(
      "versitygw (the S3 server STORAGE=s3 runs on) was not found and Go is not installed to build it.\n" +
        "Do one of these:\n" +
        "  - install Go 1.25 or newer (https://go.dev/dl/) and run this again;\n" +
        "  - put a versitygw binary on PATH or at .bin/versitygw (https://github.com/versity/versitygw/releases);\n" +
        "  - set S3_ENDPOINT, S3_BUCKET, S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY to use a bucket you already have.",
    );
  }
  const gobin = path.join(MACHINE_CACHE, "bin");
  fs.mkdirSync(gobin, { recursive: true });
  log.info(`building versitygw: go install ${VERSITYGW_MODULE} (first time only, about a minute)...`);
  const r = spawnSync(go, ["install", VERSITYGW_MODULE], { stdio: "inherit", env: { ...process.env, GOBIN: gobin, GOFLAGS: "-mod=mod" } });
  const built = path.join(gobin, "versitygw");
  if (r.status !== 0 || !isExecutable(built)) throw new Error(`go install ${VERSITYGW_MODULE} failed (exit ${r.status})`);
  fs.mkdirSync(PROJECT_BIN, { recursive: true });
  fs.rmSync(path.join(PROJECT_BIN, "versitygw"), { force: true });
  fs.symlinkSync(built, path.join(PROJECT_BIN, "versitygw"));
  return built;
}
