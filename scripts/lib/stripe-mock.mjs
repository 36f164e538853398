// stripe-mock, Stripe's official mock of its API (github.com/stripe/stripe-mock): the tests point the real
// `stripe` client at it. Found like the Temporal CLI ($STRIPE_MOCK, PATH, <project>/.bin, the per-machine
// cache), else built with `go install` into the per-machine cache (about a minute, once per machine).
// It is stateless: it checks each request against Stripe's OpenAPI spec and answers with fixtures.
import { ensureGoTool, findGoTool } from "./go-tool.mjs";
import { logger } from "./log.mjs";
import { isPortOpen, startChild, waitForPort } from "./processes.mjs";

export const STRIPE_MOCK_MODULE = "github.com/stripe/stripe-mock@v0.203.0";
const log = logger("stripe-mock");

export const findStripeMock = () => findGoTool("stripe-mock", "STRIPE_MOCK");

export function ensureStripeMock() {
  return ensureGoTool({
    name: "stripe-mock",
    envVar: "STRIPE_MOCK",
    module: STRIPE_MOCK_MODULE,
    log,
    noGo:
      "stripe-mock was not found and Go is not installed to build it.\n" +
        "Install Go 1.22 or newer and run this again, or put a stripe-mock binary on PATH or at .bin/stripe-mock.",
  });
}

/** Starts stripe-mock on 127.0.0.1:`port` (HTTP) and `port`+1 (HTTPS, unused but always opened), unless one runs. */
export async function startStripeMock({ port }) {
  const url = `http://127.0.0.1:${port}`;
  if (await isPortOpen(port)) return { url, attached: true };
  const bin = ensureStripeMock();
  const child = startChild("stripe-mock", bin, ["-http-addr", `127.0.0.1:${port}`, "-https-addr", `127.0.0.1:${port + 1}`], { quiet: true });
  // it loads Stripe's whole OpenAPI spec first: several seconds on a busy machine
  await waitForPort(port, { what: "stripe-mock", child, timeoutMs: 90_000 });
  return { url, attached: false, child };
}
