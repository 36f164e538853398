// A scene's video clip, filling the frame, muted (the scene's voiceover plays over it), trimmed to the scene by
// the scene's own Sequence, and looped when the clip is shorter than the scene. OffthreadVideo extracts exact
// frames with the compositor when rendering; the Player shows it with a <video> element.
import { AbsoluteFill, Loop, OffthreadVideo, useVideoConfig } from "remotion";
import { clipLoopFrames } from "./timeline";

export function ClipLayer({ src, clipDurationInSeconds }: { src: string; clipDurationInSeconds: number }) {
  const { fps, durationInFrames } = useVideoConfig();
  const clipFrames = clipLoopFrames(clipDurationInSeconds, fps);
  const video = <OffthreadVideo src={src} muted style={{ width: "100%", height: "100%", objectFit: "cover" }} />;
  return (
    <AbsoluteFill style={{ overflow: "hidden", backgroundColor: "black" }}>
      {clipFrames >= durationInFrames ? video : <Loop durationInFrames={clipFrames}>{video}</Loop>}
    </AbsoluteFill>
  );
}
