// The video: each scene's image with a slow Ken Burns move (or its muted clip) and its voiceover, one after another; background
// music under the whole video; optional captions timed per sentence.
import { AbsoluteFill, Html5Audio, Img, Sequence, Series, interpolate, staticFile, useCurrentFrame, useVideoConfig } from "remotion";
import { ClipLayer } from "./ClipLayer";
import type { StoryboardScene, StoryboardVideoProps } from "./props";
import { captionCues, sceneDurationInFrames } from "./timing";

const resolveSrc = (src: string) => (/^(https?:|data:|blob:)/.test(src) ? src : staticFile(src));

// Alternating moves keep consecutive scenes from feeling identical.
const MOVES = [
  { scale: [1, 1.12], x: [0, -2], y: [0, -1] },
  { scale: [1.12, 1], x: [2, 0], y: [1, 0] },
  { scale: [1, 1.1], x: [0, 2], y: [0, 1.5] },
  { scale: [1.1, 1.02], x: [-2, 0], y: [1, -1] },
] as const;

function KenBurnsImage({ src, index }: { src: string; index: number }) {
  const frame = useCurrentFrame();
  const { durationInFrames } = useVideoConfig();
  const move = MOVES[index % MOVES.length]!;
  const t = interpolate(frame, [0, Math.max(1, durationInFrames - 1)], [0, 1], { extrapolateLeft: "clamp", extrapolateRight: "clamp" });
  const lerp = (range: readonly [number, number]) => range[0] + (range[1] - range[0]) * t;
  return (
    <AbsoluteFill style={{ overflow: "hidden", backgroundColor: "black" }}>
      <Img
        src={src}
        style={{
          width: "100%",
          height: "100%",
          objectFit: "cover",
          transform: `scale(${lerp(move.scale)}) translate(${lerp(move.x)}%, ${lerp(move.y)}%)`,
        }}
      />
    </AbsoluteFill>
  );
}

function Captions({ scene }: { scene: StoryboardScene }) {
  const { fps, width, height } = useVideoConfig();
  const fontSize = Math.round(Math.min(width, height) * 0.05);
  return (
    <>
      {captionCues(scene.text, scene.audioDurationInSeconds, fps).map((cue) => (
        <Sequence key={cue.fromFrame} from={cue.fromFrame} durationInFrames={cue.durationInFrames} layout="none">
          <AbsoluteFill style={{ justifyContent: "flex-end", alignItems: "center", padding: `0 6% ${Math.round(height * 0.08)}px` }}>
            <div
              style={{
                maxWidth: "100%",
                padding: `${fontSize * 0.3}px ${fontSize * 0.6}px`,
                borderRadius: fontSize * 0.3,
                backgroundColor: "rgba(0, 0, 0, 0.6)",
                color: "white",
                fontFamily: "DejaVu Sans, Helvetica, Arial, sans-serif",
                fontWeight: 700,
                fontSize,
                lineHeight: 1.25,
                textAlign: "center",
              }}
            >
              {cue.text}
            </div>
          </AbsoluteFill>
        </Sequence>
      ))}
    </>
  );
}

export function StoryboardVideo({ scenes, music, captions }: StoryboardVideoProps) {
  const { fps, durationInFrames } = useVideoConfig();
  const fade = Math.min(fps, Math.floor(durationInFrames / 4));
  return (
    <AbsoluteFill style={{ backgroundColor: "black" }}>
      <Series>
        {scenes.map((scene, i) => (
          <Series.Sequence key={i} durationInFrames={sceneDurationInFrames(scene.audioDurationInSeconds, fps)}>
            {scene.clipSrc && scene.clipDurationInSeconds ? (
              <ClipLayer src={resolveSrc(scene.clipSrc)} clipDurationInSeconds={scene.clipDurationInSeconds} />
            ) : (
              <KenBurnsImage src={resolveSrc(scene.imageSrc)} index={i} />
            )}
            <Html5Audio src={resolveSrc(scene.audioSrc)} />
            {captions ? <Captions scene={scene} /> : null}
          </Series.Sequence>
        ))}
      </Series>
      {music && music.volume > 0 ? (
        <Html5Audio
          src={resolveSrc(music.src)}
          loop
          // a short fade in and out so the music does not start or stop abruptly
          volume={(f) =>
            music.volume *
            interpolate(f, [0, fade, durationInFrames - fade, durationInFrames], [0, 1, 1, 0], {
              extrapolateLeft: "clamp",
              extrapolateRight: "clamp",
            })
          }
        />
      ) : null}
    </AbsoluteFill>
  );
}
