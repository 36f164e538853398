// Scene media: one scene's image or voiceover, and Generate All Content, which fills every scene lacking
// media: images in batches of 5 with a 2 s pause and, beside them, voiceovers one by one with a 1 s pause. A failed
// scene is counted and skipped; the rest go on. Running as a workflow, it survives a closed tab or a restarted worker.
import { patched, proxyActivities, setHandler, sleep, type ActivityOptions } from "@temporalio/workflow";
import type { SceneClipActivities } from "./activities/scene-clip";
import type { StoryboardActivities } from "./activities/storyboard";
import { GENERATE_ALL } from "../app/lib/constants";
import { innermostMessage } from "./shared/errors";
import {
  generateAllProgressQuery,
  SCENE_MISSING,
  SCENE_MEDIA_REJECTED,
  type GenerateAllInput,
  type GenerateAllProgress,
  type SceneClipInput,
  type SceneClipResult,
  type SceneImageResult,
  type SceneMediaInput,
  type SceneVoiceoverResult,
} from "./shared/scene-media";
import { LONG_WORK } from "./shared/priorities";
import { proxyActivitiesOn } from "./shared/queues";

const sceneMediaOptions: ActivityOptions = {
  startToCloseTimeout: "10 minutes",
  heartbeatTimeout: "20 seconds",
  retry: { initialInterval: "2 seconds", backoffCoefficient: 2, maximumAttempts: 3, nonRetryableErrorTypes: [SCENE_MISSING] },
};
// pictures and voices are heavy work (their own queue, decision 155); finding what lacks media is light
const { generateSceneImage, generateSceneVoiceover } = proxyActivitiesOn<StoryboardActivities>("heavy", { ...sceneMediaOptions, priority: LONG_WORK });
const { findCellsLackingMedia } = proxyActivities<StoryboardActivities>(sceneMediaOptions);

// Converting a clip: one attempt more after a crashed worker; a refused clip (too long, no video) is final.
const { convertSceneClipUpload } = proxyActivitiesOn<SceneClipActivities>("heavy", {
  startToCloseTimeout: "10 minutes",
  heartbeatTimeout: "30 seconds",
  retry: { initialInterval: "2 seconds", maximumAttempts: 2, nonRetryableErrorTypes: [SCENE_MEDIA_REJECTED, SCENE_MISSING] },
});

/** The creator's uploaded clip, converted to the format (H.264, no audio, no metadata) and shown on the scene. */
export async function sceneClipWorkflow(input: SceneClipInput): Promise<SceneClipResult> {
  return convertSceneClipUpload(input);
}

export async function sceneImageWorkflow(input: SceneMediaInput): Promise<SceneImageResult> {
  return generateSceneImage(input);
}

export async function sceneVoiceoverWorkflow(input: SceneMediaInput): Promise<SceneVoiceoverResult> {
  return generateSceneVoiceover(input);
}

export async function generateAllContentWorkflow(input: GenerateAllInput): Promise<GenerateAllProgress> {
  const progress: GenerateAllProgress = {
    phase: "finding",
    imagesTotal: 0,
    imagesDone: 0,
    imagesFailed: 0,
    voiceoversTotal: 0,
    voiceoversDone: 0,
    voiceoversFailed: 0,
    failures: [],
  };
  setHandler(generateAllProgressQuery, () => progress);
  const scene = { projectId: input.projectId, userId: input.userId };
  const pauses = input.pauses ?? { imageBatchMs: GENERATE_ALL.imageBatchPauseMs, voiceoverMs: GENERATE_ALL.voiceoverPauseMs };
  const missing = await findCellsLackingMedia({ projectId: input.projectId });
  progress.imagesTotal = missing.images.length;
  progress.voiceoversTotal = missing.voiceovers.length;
  /** One scene's picture or voiceover, counted as made or failed; a failure is recorded and the rest go on. */
  const make = async (kind: "image" | "voiceover", cellIndex: number) => {
    try {
      await (kind === "image" ? generateSceneImage : generateSceneVoiceover)({ ...scene, cellIndex });
      if (kind === "image") progress.imagesDone++;
      else progress.voiceoversDone++;
    } catch (error) {
      if (kind === "image") progress.imagesFailed++;
      else progress.voiceoversFailed++;
      progress.failures.push({ cellIndex, kind, message: innermostMessage(error, String(error)) });
    }
  };
  const images = async () => {
    for (let start = 0; start < missing.images.length; start += GENERATE_ALL.imageBatchSize) {
      if (start > 0 && pauses.imageBatchMs > 0) await sleep(pauses.imageBatchMs);
      await Promise.all(missing.images.slice(start, start + GENERATE_ALL.imageBatchSize).map((cellIndex) => make("image", cellIndex)));
    }
  };
  const voiceovers = async () => {
    for (const [i, cellIndex] of missing.voiceovers.entries()) {
      if (i > 0 && pauses.voiceoverMs > 0) await sleep(pauses.voiceoverMs);
      await make("voiceover", cellIndex);
    }
  };

  if (patched("generate-all-voiceovers-beside-images")) {
    // A scene's picture and voiceover do not wait for each other (issue 53, decision 294): the voiceovers go one by one
    // beside the pictures' batches, each kind keeping its own pacing, so a scene is whole (and its render chunk can be
    // drawn) as soon as both of its own are made. The bar reads the pictures until they are all made, then the
    // voiceovers left.
    progress.phase = missing.images.length > 0 ? "images" : "voiceovers";
    const imagesThenPhase = () =>
      images().then(() => {
        if (progress.voiceoversDone + progress.voiceoversFailed < progress.voiceoversTotal) progress.phase = "voiceovers";
      });
    // The voiceovers' chain is the longer one (one by one, each waiting for the one before), so its first one takes
    // a heavy slot before the pictures ask for theirs (decision 295). Activities scheduled in one workflow task reach
    // the queue in no set order (measured: two pictures took both slots first every time), so the pictures are
    // scheduled a timer later. Runs started before this patch scheduled the pictures first and keep that on replay.
    if (patched("generate-all-first-voiceover-first")) {
      const voiced = voiceovers();
      if (missing.voiceovers.length > 0 && missing.images.length > 0) await sleep(1);
      await Promise.all([voiced, imagesThenPhase()]);
    } else {
      const imagesMade = imagesThenPhase();
      await Promise.all([voiceovers(), imagesMade]);
    }
  } else {
    progress.phase = "images";
    await images();
    progress.phase = "voiceovers";
    await voiceovers();
  }
  progress.phase = "done";
  return progress;
}
