// The scene-media stage's clip work (decision 072): a creator's uploaded clip is re-encoded here, in the worker,
// not in the web request that received it. Progress is heartbeated (the share converted) for the scene's card.
import { ApplicationFailure, Context } from "@temporalio/activity";
import { convertUploadedClip } from "~/core/scene-cell-media.server";
import { SceneMediaRejection } from "~/core/scene-media-files.server";
import { SCENE_MEDIA_REJECTED, type SceneClipInput, type SceneClipResult } from "../shared/scene-media";

/** A refusal the creator has to act on (too long, too large, not a video): final, with its HTTP status. */
export function asSceneMediaFailure(e: unknown): unknown {
  if (e instanceof SceneMediaRejection) return ApplicationFailure.create({ message: e.message, type: SCENE_MEDIA_REJECTED, nonRetryable: true, details: [e.status] });
  return e;
}

export function createSceneClipActivities() {
  return {
    async convertSceneClipUpload(input: SceneClipInput): Promise<SceneClipResult> {
      const ctx = Context.current();
      let share = 0;
      ctx.heartbeat(0);
      // a heartbeat every 2 s even when ffmpeg reports nothing new, so a dead worker is noticed
      const timer = setInterval(() => ctx.heartbeat(share), 2000);
      try {
        return await convertUploadedClip(input, (done) => {
          share = done;
          ctx.heartbeat(done);
        });
      } catch (e) {
        throw asSceneMediaFailure(e);
      } finally {
        clearInterval(timer);
      }
    },
  };
}

export type SceneClipActivities = ReturnType<typeof createSceneClipActivities>;
