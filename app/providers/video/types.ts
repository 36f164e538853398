// One interface for every AI video clip service (issue 50, decision 223): a clip from the scene's picture
// (image-to-video, keeps the storyboard's look) or from its words (text-to-video). A generation is a paid job:
// each adapter starts it once per activity, keeps the job's name in the call's ledger before polling it, and polls
// until the video is ready (decision 200).
import type { ClipProviderId } from "~/lib/clip-prices";
import type { AspectRatio } from "../types";

export type { ClipProviderId } from "~/lib/clip-prices";

export type ClipRequest = {
  /** What should move, and how: the scene's image prompt, with its voiceover as context. */
  prompt: string;
  /** The first frame (the scene's picture): image-to-video. Absent: text-to-video. */
  image?: { data: Buffer; mimeType: string };
  aspectRatio: AspectRatio;
  /** Seconds asked for: one of the model's `durations` (see prices.ts' clipSecondsFor). */
  seconds: number;
};

export type ClipResult = {
  video: Buffer;
  mimeType: string;
  /** The provider's name for the job (Veo's operation name, Runway's task id). */
  jobId: string;
};

/** Called once, as soon as the service accepted the paid job (before the first poll): the spend is recorded then. */
export type JobStarted = (jobId: string) => Promise<void>;

export type ClipProvider = {
  id: ClipProviderId;
  /** The service's name as people know it ("Google Veo", "Runway"). */
  name: string;
  model: string;
  /** Whether the model can start from words alone (Runway's gen4_turbo needs a picture). */
  textToVideo: boolean;
  generateClip(request: ClipRequest, onJobStarted?: JobStarted): Promise<ClipResult>;
};
