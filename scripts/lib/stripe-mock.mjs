// stripe-mock, Stripe's official mock of its API (github.com/stripe/stripe-mock): the tests point the real
// `stripe` client at it. Found like the Temporal CLI ($STRIPE_MOCK, PATH, <project>/.bin, the per-machine
// cache), else built with `go install` into the per-machine cache (about a minute, once per machine).
// It is stateless: it checks each request against Stripe's OpenAPI spec and answers with fixtures.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { MACHINE_CACHE, PROJECT_BIN } from "./paths.mjs";
import { logger } from "./log.mjs";
import { isPortOpen, startChild, waitForPort } from "./processes.mjs";

export const STRIPE_MOCK_MODULE = "github.com/stripe/stripe-mock@v0.203.0";
const log = logger("stripe-mock");

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

export function findStripeMock() {
  const candidates = [process.env.STRIPE_MOCK, onPath("stripe-mock"), path.join(PROJECT_BIN, "stripe-mock"), path.join(MACHINE_CACHE, "bin", "stripe-mock")];
  return candidates.find((c) => c && isExecutable(c)) ?? null;
}

export function ensureStripeMock() {
  const found = findStripeMock();
  if (found) return found;
  const go = onPath("go");
  if (!go) {
    throw new Error(
      "stripe-mock was not found and Go is not installed to build it.\n" +
        "Install Go 1.22 or newer and run this again, or put a stripe-mock binary on PATH or at .bin/stripe-mock.",
    );
  }
  const gobin = path.join(MACHINE_CACHE, "bin");
  fs.mkdirSync(gobin, { recursive: true });
  log.info(`building stripe-mock: go install ${STRIPE_MOCK_MODULE} (first time only, about a minute)...`);
  const r = spawnSync(go, ["install", STRIPE_MOCK_MODULE], { stdio: "inherit", env: { ...process.env, GOBIN: gobin, GOFLAGS: "-mod=mod" } });
  const built = path.join(gobin, "stripe-mock");
  if (r.status !== 0 || !isExecutable(built)) throw new Error(`go install ${STRIPE_MOCK_MODULE} failed (exit ${r.status})`);
  fs.mkdirSync(PROJECT_BIN, { recursive: true });
  fs.rmSync(path.join(PROJECT_BIN, "stripe-mock"), { force: true });
  fs.symlinkSync(built, path.join(PROJECT_BIN, "stripe-mock"));
  return built;
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
