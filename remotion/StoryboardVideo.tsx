// The video, drawn from its timeline (app/lib/timeline/timeline.ts): each scene's layer (an image with its slow pan and
// zoom, a clip, or a colour) one after another, caption lines over them, the voiceovers and the music under them.
// The fast renderer compiles the same timeline to ffmpeg; nothing about the picture is decided here.
import { useMemo } from "react";
import { AbsoluteFill, Html5Audio, Img, OffthreadVideo, Sequence, staticFile, useCurrentFrame, useVideoConfig } from "remotion";
import { BrandCard } from "./BrandCard";
import { CaptionBox } from "./Caption";
import { ClipLayer } from "./ClipLayer";
import type { StoryboardVideoProps } from "../app/lib/timeline/video-props";
import {
  buildTimeline,
  tailFrames,
  trackVolumeAt,
  transitionLook,
  visibleRectAt,
  type AudioTrack,
  type ImageLayer,
  type SceneLayer,
  type Timeline,
  type TimelineScene,
} from "../app/lib/timeline/timeline";

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
      <ClipLayer src={resolveSrc(layer.src)} clipDurationInSeconds={layer.durationInSeconds} fit={layer.fit} sceneFrames={durationInFrames} />
    ) : (
      <OffthreadVideo src={resolveSrc(layer.src)} muted style={{ width: "100%", height: "100%", objectFit: "cover" }} />
    );
  }
  if (layer.kind === "card") return <BrandCard card={layer} />;
  return <AbsoluteFill style={{ backgroundColor: layer.color }} />;
}

/**
 * A scene with its transitions (decision 225): over the scene before while it comes in (its opacity or shift), and
 * shifted or zoomed while the next one comes in over it (the frames after its own end). Later scenes are drawn above.
 */
function SceneWithTransitions({ scene, next }: { scene: TimelineScene; next: TimelineScene | undefined }) {
  const frame = useCurrentFrame();
  const { width } = useVideoConfig();
  let opacity = 1;
  let shift = 0;
  let zoom = 1;
  if (scene.transitionIn && frame < scene.transitionIn.durationInFrames) {
    const look = transitionLook(scene.transitionIn, frame, width);
    opacity = look.newOpacity;
    shift = look.newShift;
  }
  if (next?.transitionIn && frame >= scene.durationInFrames) {
    const look = transitionLook(next.transitionIn, frame - scene.durationInFrames, width);
    shift = look.oldShift;
    zoom = look.oldZoom;
  }
  const moved = shift !== 0 || zoom !== 1;
  return (
    <AbsoluteFill style={{ opacity, transform: moved ? `translateX(${shift}px) scale(${zoom})` : undefined, transformOrigin: "50% 50%" }}>
      <Layer layer={scene.layer} durationInFrames={scene.durationInFrames} />
    </AbsoluteFill>
  );
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
      {timeline.scenes.map((scene, i) => (
        <Sequence key={`scene-${scene.index}`} from={scene.fromFrame} durationInFrames={scene.durationInFrames + tailFrames(timeline, i)}>
          {scene.transitionIn || tailFrames(timeline, i) > 0 ? (
            <SceneWithTransitions scene={scene} next={timeline.scenes[i + 1]} />
          ) : (
            <Layer layer={scene.layer} durationInFrames={scene.durationInFrames} />
          )}
        </Sequence>
      ))}
      {timeline.overlays.map((overlay) => (
        <Sequence key={`caption-${overlay.fromFrame}`} from={overlay.fromFrame} durationInFrames={overlay.durationInFrames}>
          <CaptionBox lines={overlay.lines} highlightWord={overlay.highlightWord} style={overlay.style} />
        </Sequence>
      ))}
      {timeline.watermark ? (
        <Sequence key="watermark" from={timeline.watermark.fromFrame} durationInFrames={timeline.watermark.durationInFrames}>
          <Img
            alt=""
            src={resolveSrc(timeline.watermark.src)}
            style={{ position: "absolute", left: timeline.watermark.x, top: timeline.watermark.y, width: timeline.watermark.size, height: timeline.watermark.size }}
          />
        </Sequence>
      ) : null}
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
