// Stopping workflows whose rows are about to be deleted (a project, a disconnected account's posts): each is asked to
// cancel (so it records its own ending) and terminated if it is still running after a grace period.
import { WorkflowNotFoundError } from "@temporalio/client";
import { getTemporalClient } from "./temporal.server";

const CANCEL_GRACE_MS = 5_000;

/** Cancels each workflow (one already ended or never started is fine); terminates those still running after the grace. */
export async function stopWorkflows(ids: string[], reason: string): Promise<void> {
  const client = await getTemporalClient();
  await Promise.all(
    ids.map(async (id) => {
      const handle = client.workflow.getHandle(id);
      try {
        await handle.cancel();
        const ended = await Promise.race([
          handle.result().then(
            () => true,
            () => true,
          ),
          new Promise<false>((resolve) => setTimeout(() => resolve(false), CANCEL_GRACE_MS)),
        ]);
        if (!ended) await handle.terminate(reason);
      } catch (e) {
        if (!(e instanceof WorkflowNotFoundError)) throw e;
      }
    }),
  );
}

