// The worker's door for a refusal of the core (decision 212): an activity that calls the core and is refused
// fails without retrying (the same input would be refused again), with the core's words as the failure's message
// and its status and field as the failure's details. The workflow shows the message as the stage's error.
import { ApplicationFailure } from "@temporalio/activity";
import type { Refusal } from "~/core/refusal.server";

/** The failure type of a refusal that no stage names more closely. */
export const REFUSED = "Refused";

/** `refused` as a non-retryable failure of `type`, with the same words. */
export function refusalFailure(refused: Refusal, type: string = REFUSED): ApplicationFailure {
  return ApplicationFailure.create({ message: refused.message, type, nonRetryable: true, details: [{ status: refused.status, field: refused.field }] });
}
