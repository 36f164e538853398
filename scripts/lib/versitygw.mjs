// Finds versitygw (Versity's S3 gateway, Apache-2.0: a real S3 API over a POSIX folder), the object store that
// `STORAGE=s3 npm start` and the tests run on (decision 150). Found like the Temporal CLI ($VERSITYGW, PATH,
// <project>/.bin, the per-machine cache), else built with `go install` into the per-machine cache (about a
// minute cold, once per machine) and linked into .bin, before any server starts (scripts/lib/go-tool.mjs).
import { ensureGoTool, findGoTool } from "./go-tool.mjs";
import { logger } from "./log.mjs";

/** v1.8.0 builds with Go 1.25+ and has no `replace` in its go.mod, so `go install` accepts it. */
export const VERSITYGW_MODULE = "github.com/versity/versitygw/cmd/versitygw@v1.8.0";
const log = logger("object-store");

export const findVersitygw = () => findGoTool("versitygw", "VERSITYGW");

export function ensureVersitygw() {
  return ensureGoTool({
    name: "versitygw",
    envVar: "VERSITYGW",
    module: VERSITYGW_MODULE,
    log,
    noGo:
      "versitygw (the S3 server STORAGE=s3 runs on) was not found and Go is not installed to build it.\n" +
        "Do one of these:\n" +
        "  - install Go 1.25 or newer (https://go.dev/dl/) and run this again;\n" +
        "  - put a versitygw binary on PATH or at .bin/versitygw (https://github.com/versity/versitygw/releases);\n" +
        "  - set S3_ENDPOINT, S3_BUCKET, S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY to use a bucket you already have.",
  });
}
