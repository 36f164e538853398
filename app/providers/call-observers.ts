// Who hears of each cloud provider request (issue 54): the HTTP client (http.server.ts) reports every request's
// provider, outcome and time here; the metrics module (app/core/observability/metrics.server.ts) listens. No
// listener, no cost beyond one clock read. Kept apart from the client so that observing never changes a request.
import { ProviderError } from "./errors";

export type ProviderCallOutcome = {
  provider: string;
  /** "ok", or the failure's kind (a ProviderError's kind; "cancelled" when the caller cancelled; else "network"). */
  outcome: string;
  seconds: number;
  /** The request starts a job the creator pays for. */
  paid: boolean;
};

const observers = new Set<(call: ProviderCallOutcome) => void>();

/** Adds a listener; returns the function that removes it. */
export function onProviderCall(observer: (call: ProviderCallOutcome) => void): () => void {
  observers.add(observer);
  return () => observers.delete(observer);
}

/** What kind of failure an error is, in the provider client's words. */
export function outcomeOf(error: unknown): string {
  if (error instanceof ProviderError) return error.kind;
  if (error instanceof Error && error.name === "AbortError") return "cancelled";
  return "network";
}

/** Called when a request starts; the function it returns is called once with the request's error, or nothing. */
export function providerCallStarted(provider: string, paid: boolean): (error?: unknown) => void {
  const started = performance.now();
  let reported = false;
  return (error?: unknown) => {
    if (reported || observers.size === 0) return;
    reported = true;
    const call = { provider, outcome: error === undefined ? "ok" : outcomeOf(error), seconds: (performance.now() - started) / 1000, paid };
    for (const observer of observers) {
      try {
        observer(call);
      } catch {
        // an observer's fault never reaches the request
      }
    }
  };
}
