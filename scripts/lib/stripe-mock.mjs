// stripe-mock, Stripe's official mock of its API (github.com/stripe/stripe-mock): the tests point the real
// `stripe` client at it. Found like the Temporal CLI ($STRIPE_MOCK, PATH, <project>/.bin, the per-machine
// cache), else built with `go install` into the per-machine cache (about a minute, once per machine).
// It is stateless: it checks each request against Stripe's OpenAPI spec and answers with fixtures.
import { ensureGoTool, findGoTool } from "./go-tool.mjs";
import { logger } from "./log.mjs";
import { isPortOpen, startChild } from "./processes.mjs";
import { httpProbe, waitUntilReady } from "./readiness.mjs";

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

/** Ready when it answers an API call the way Stripe would (it loads Stripe's whole OpenAPI spec first). */
const stripeMockProbe = (url) => httpProbe(`${url}/v1/customers?limit=1`, { init: { headers: { authorization: "Bearer sk_test_123" } } });

/**
 * Starts stripe-mock on 127.0.0.1:`port` (HTTP) and `port`+1 (HTTPS, unused but always opened), unless one runs;
 * resolves once it answers an API call (several seconds on a busy machine).
 */
export async function startStripeMock({ port }) {
  const url = `http://127.0.0.1:${port}`;
  if (await isPortOpen(port)) {
    await waitUntilReady({ what: `stripe-mock at ${url}`, probe: stripeMockProbe(url), log });
    return { url, attached: true };
  }
  const bin = await ensureStripeMock();
  const child = startChild("stripe-mock", bin, ["-http-addr", `127.0.0.1:${port}`, "-https-addr", `127.0.0.1:${port + 1}`], { quiet: true });
  await waitUntilReady({ what: "stripe-mock", child, probe: stripeMockProbe(url), log });
  return { url, attached: false, child };
}
