// The publish stage's thumbnail and metadata work as workflows: rendering a thumbnail (sharp, in the worker,
// off the web process) and writing the upload's description and tags with the creator's text provider.
// Short runs whose callers wait for the result; retries and failures are visible in the Temporal UI.
import { proxyActivities } from "@temporalio/workflow";
import type { createThumbnailActivities } from "./activities/thumbnail";
import { recordStageFailure } from "./shared/failures";
import { proxyActivitiesOn } from "./shared/queues";
import {
  THUMBNAIL_FAILED,
  THUMBNAIL_IMAGE_MISSING,
  UPLOAD_METADATA_FAILED,
  type ThumbnailWorkflowInput,
  type ThumbnailWorkflowResult,
  type UploadMetadataWorkflowInput,
  type UploadMetadataWorkflowResult,
} from "./shared/thumbnail";

type Activities = ReturnType<typeof createThumbnailActivities>;

// drawing the thumbnail is heavy work; writing the metadata is light (decision 155)
const { renderProjectThumbnail } = proxyActivitiesOn<Activities>("heavy", {
  startToCloseTimeout: "2 minutes",
  retry: { initialInterval: "1 second", backoffCoefficient: 2, maximumAttempts: 3, nonRetryableErrorTypes: [THUMBNAIL_IMAGE_MISSING] },
});
const { writeUploadMetadataFor } = proxyActivities<Activities>({
  startToCloseTimeout: "3 minutes",
  heartbeatTimeout: "30 seconds",
  retry: { initialInterval: "2 seconds", backoffCoefficient: 2, maximumAttempts: 3 },
});

/** Nothing to mark on a row: the caller waits for the result and shows the failure itself. */
const noRow = async () => undefined;

export async function thumbnailWorkflow(input: ThumbnailWorkflowInput): Promise<ThumbnailWorkflowResult> {
  try {
    return await renderProjectThumbnail(input);
  } catch (error) {
    return recordStageFailure(error, {
      userId: input.userId,
      projectId: input.projectId,
      logType: "thumbnail_generation",
      failureType: THUMBNAIL_FAILED,
      fallbackMessage: "The thumbnail could not be generated",
      recordOnRow: noRow,
    });
  }
}

export async function uploadMetadataWorkflow(input: UploadMetadataWorkflowInput): Promise<UploadMetadataWorkflowResult> {
  try {
    return await writeUploadMetadataFor(input);
  } catch (error) {
    return recordStageFailure(error, {
      userId: input.userId,
      logType: "metadata_generation",
      failureType: UPLOAD_METADATA_FAILED,
      fallbackMessage: "The description and tags could not be written",
      recordOnRow: noRow,
    });
  }
}
