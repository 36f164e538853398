// The web side's Temporal client: one connection per process, opened on first use and reused.
import { Client, Connection } from "@temporalio/client";
import { getEnv } from "./env.server";

declare global {
  var __reelsmithTemporal: Promise<Client> | undefined;
}

async function connect(): Promise<Client> {
  const env = getEnv();
  const connection = await Connection.connect({ address: env.TEMPORAL_ADDRESS, connectTimeout: "5s" });
  return new Client({ connection, namespace: env.TEMPORAL_NAMESPACE });
}

export function getTemporalClient(): Promise<Client> {
  // A failed connection is not cached, so the next request tries again.
  globalThis.__reelsmithTemporal ??= connect().catch((e) => {
    globalThis.__reelsmithTemporal = undefined;
    throw e;
  });
  return globalThis.__reelsmithTemporal;
}
