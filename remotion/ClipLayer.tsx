// A scene's video clip, filling the frame, muted (the scene's voiceover plays over it), trimmed to the scene by
// the scene's own Sequence. Shorter than the scene, a creator's or stock clip is looped; an AI clip ("stretch",
// decision 243) is slowed by at most 1.5x and then its last frame held. OffthreadVideo extracts exact frames with
// the compositor when rendering; the Player shows it with a <video> element.
import { AbsoluteFill, Freeze, Loop, OffthreadVideo, useCurrentFrame, useRemotionEnvironment, useVideoConfig } from "remotion";
import { clipLoopFrames, clipStretch, stretchedClipFrame } from "../app/lib/timeline/timeline";

const cover = { width: "100%", height: "100%", objectFit: "cover" } as const;

/**
 * A stretched clip: when rendering, each frame is the clip frame `stretchedClipFrame` names (the fast renderer's
 * very frames); in the Player, the clip plays at the slower rate and stops on its last frame.
 */
function StretchedClip({ src, clipFrames, sceneFrames }: { src: string; clipFrames: number; sceneFrames: number }) {
  const frame = useCurrentFrame();
  const { isRendering } = useRemotionEnvironment();
  const stretch = clipStretch(clipFrames, sceneFrames);
  if (!isRendering) return <OffthreadVideo src={src} muted playbackRate={stretch.den / stretch.num} style={cover} />;
  return (
    <Freeze frame={stretchedClipFrame(frame, clipFrames, stretch)}>
      <OffthreadVideo src={src} muted style={cover} />
    </Freeze>
  );
}

export function ClipLayer({ src, clipDurationInSeconds, fit = "loop", sceneFrames }: { src: string; clipDurationInSeconds: number; fit?: "loop" | "stretch"; sceneFrames: number }) {
  const { fps, durationInFrames } = useVideoConfig();
  const clipFrames = clipLoopFrames(clipDurationInSeconds, fps);
  if (fit === "stretch") {
    return (
      <AbsoluteFill style={{ overflow: "hidden", backgroundColor: "black" }}>
        <StretchedClip src={src} clipFrames={clipFrames} sceneFrames={sceneFrames} />
      </AbsoluteFill>
    );
  }
  const video = <OffthreadVideo src={src} muted style={cover} />;
  return (
    <AbsoluteFill style={{ overflow: "hidden", backgroundColor: "black" }}>
      {clipFrames >= durationInFrames ? video : <Loop durationInFrames={clipFrames}>{video}</Loop>}
    </AbsoluteFill>
  );
}
