// The video, drawn from its timeline (remotion/timeline.ts): each scene's layer (an image with its slow pan and
// zoom, a clip, or a colour) one after another, caption lines over them, the voiceovers and the music under them.
// The fast renderer compiles the same timeline to ffmpeg; nothing about the picture is decided here.
import { useMemo } from "react";
import { AbsoluteFill, Html5Audio, Img, OffthreadVideo, Sequence, staticFile, useCurrentFrame, useVideoConfig } from "remotion";
import { CaptionBox } from "./Caption";
import { ClipLayer } from "./ClipLayer";
import type { StoryboardVideoProps } from "./props";
import { buildTimeline, trackVolumeAt, visibleRectAt, type AudioTrack, type ImageLayer, type SceneLayer, type Timeline } from "./timeline";

const resolveSrc = (src: string) => (/^(https?:|data:|blob:)/.test(src) ? src : staticFile(src));

function MovingImage({ layer, durationInFrames }: { layer: ImageLayer; durationInFrames: number }) {
  const frame = useCurrentFrame();
  const { width, height } = useVideoConfig();
  const rect = visibleRectAt(layer.move, frame, durationInFrames, width, height);
  const scale = width / rect.width;
  return (
    <AbsoluteFill style={{ overflow: "hidden" }}>
      <Img
        alt=""
        src={resolveSrc(layer.src)}
        style={{
          position: "absolute",
          left: 0,
          top: 0,
          width,
          height,
          objectFit: "cover",
          transformOrigin: "0 0",
          transform: `scale(${scale}) translate(${-rect.left}px, ${-rect.top}px)`,
        }}
      />
    </AbsoluteFill>
  );
}

function Layer({ layer, durationInFrames }: { layer: SceneLayer; durationInFrames: number }) {
  if (layer.kind === "image") return <MovingImage layer={layer} durationInFrames={durationInFrames} />;
  if (layer.kind === "clip") {
    return layer.durationInSeconds ? (
      <ClipLayer src={resolveSrc(layer.src)} clipDurationInSeconds={layer.durationInSeconds} />
    ) : (
      <OffthreadVideo src={resolveSrc(layer.src)} muted style={{ width: "100%", height: "100%", objectFit: "cover" }} />
    );
  }
  return <AbsoluteFill style={{ backgroundColor: layer.color }} />;
}

function Track({ track }: { track: AudioTrack }) {
  const faded = track.fadeInFrames > 0 || track.fadeOutFrames > 0;
  return (
    <Html5Audio
      src={resolveSrc(track.src)}
      loop={track.loop}
      volume={faded ? (f) => trackVolumeAt(track, track.fromFrame + f) : track.volume}
    />
  );
}

export function TimelineVideo({ timeline }: { timeline: Timeline }) {
  return (
    <AbsoluteFill style={{ backgroundColor: timeline.background }}>
      {timeline.scenes.map((scene) => (
        <Sequence key={`scene-${scene.index}`} from={scene.fromFrame} durationInFrames={scene.durationInFrames}>
          <Layer layer={scene.layer} durationInFrames={scene.durationInFrames} />
        </Sequence>
      ))}
      {timeline.overlays.map((overlay) => (
        <Sequence key={`caption-${overlay.fromFrame}`} from={overlay.fromFrame} durationInFrames={overlay.durationInFrames}>
          <CaptionBox lines={overlay.lines} highlightWord={overlay.highlightWord} style={overlay.style} />
        </Sequence>
      ))}
      {timeline.audio.map((track, i) =>
        track.volume > 0 ? (
          <Sequence key={`audio-${i}`} from={track.fromFrame} durationInFrames={track.durationInFrames} layout="none">
            <Track track={track} />
          </Sequence>
        ) : null,
      )}
    </AbsoluteFill>
  );
}

export function StoryboardVideo(props: StoryboardVideoProps) {
  const timeline = useMemo(() => buildTimeline(props), [props]);
  return <TimelineVideo timeline={timeline} />;
}
