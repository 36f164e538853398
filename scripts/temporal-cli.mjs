// npm run temporal:install: find or build the Temporal CLI and print where it is.
import { ensureTemporalCli } from "./lib/temporal-cli.mjs";
try {
  console.log(await ensureTemporalCli());
} catch (e) {
  console.error(e.message);
  process.exit(1);
}
