// Finds the `temporal` CLI (which carries the dev server and its Web UI), or builds it with Go.
// Order: $TEMPORAL_CLI, PATH, <project>/.bin, the per-machine cache; otherwise `go install` into the
// per-machine cache (about 4 minutes cold, seconds with warm Go caches) and link it into .bin (scripts/lib/go-tool.mjs).
import { ensureGoTool, findGoTool } from "./go-tool.mjs";
import { logger } from "./log.mjs";

export const TEMPORAL_CLI_MODULE = "github.com/temporalio/cli/cmd/temporal@v1.5.1";
const log = logger("temporal");

export const findTemporalCli = () => findGoTool("temporal", "TEMPORAL_CLI");

export function ensureTemporalCli() {
  return ensureGoTool({
    name: "temporal",
    envVar: "TEMPORAL_CLI",
    module: TEMPORAL_CLI_MODULE,
    log,
    about: "a few minutes",
    noGo:
      "The Temporal CLI was not found and Go is not installed to build it.\n" +
      "Install one of them:\n" +
      "  - Go 1.25 or newer (https://go.dev/dl/ or `apt-get install golang`), then run this again; or\n" +
      "  - the Temporal CLI (https://docs.temporal.io/cli#install), on PATH or at .bin/temporal; or\n" +
      "  - set TEMPORAL_ADDRESS to use a Temporal server you already run.",
  });
}
