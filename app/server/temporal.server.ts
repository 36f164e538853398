// The web side's Temporal client: one connection per process, opened on first use and reused.
import { Client, Connection, WorkflowNotFoundError } from "@temporalio/client";
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

/** Whether a workflow with this id is running now (false when it ended or never existed). */
export async function workflowIsRunning(workflowId: string): Promise<boolean> {
  try {
    const description = await (await getTemporalClient()).workflow.getHandle(workflowId).describe();
    return description.status.name === "RUNNING";
  } catch (e) {
    if (e instanceof WorkflowNotFoundError) return false;
    throw e;
  }
}
