// Beyond the spec: the whole video, previewed in the browser with the same Remotion composition the renderer
// uses, so a creator sees pacing, motion and captions before spending minutes on a render. The caption style is
// chosen here (issue 24) and the Player redraws with it at once; its controls sit under the picture, not on the
// captions (issue 22).
import { Player, type PlayerRef } from "@remotion/player";
import { useEffect, useRef, useState } from "react";
import type { CaptionStyle } from "~/lib/caption-style";
import { PreviewControls } from "./preview-controls";
import type { ResolutionValue } from "~/lib/video-format";
import type { StoryboardCellView } from "~/server/storyboard.server";
import {
  storedWordTimings,
  type StoryboardVideoProps,
} from "~/lib/timeline/video-props";
import { StoryboardVideo } from "../../../remotion/StoryboardVideo";
import { buildTimeline } from "~/lib/timeline/timeline";
import { VIDEO_FPS } from "~/lib/timeline/timing";
import { videoSizeFor } from "~/lib/video-format";
import { CaptionStylePicker, useCaptionStyle } from "./caption-style-picker";
import { PREVIEW_LOADING, PREVIEW_NOT_READY, PreviewHeading } from "./preview-section";
import { allScenesHaveMedia } from "~/lib/storyboard";
import { NO_TRANSITIONS, transitionProps, type VideoTransitions } from "~/lib/transitions";
import { useTransitions } from "./transition-picker";
import { isAiClip } from "~/lib/clip-prices";

/** Props for the composition from the scenes; null until every scene has its image and measured audio. */
export function previewProps(
  cells: StoryboardCellView[],
  resolution: ResolutionValue,
  captionStyle: CaptionStyle,
  transitions: VideoTransitions = NO_TRANSITIONS,
): StoryboardVideoProps | null {
  if (
    !cells.length ||
    cells.some((c) => !c.imageUrl || !c.audioUrl || !c.audioDuration)
  )
    return null;
  const origin = typeof window === "undefined" ? "" : window.location.origin;
  const chosen = transitionProps(transitions, cells.length);
  return {
    ...videoSizeFor(resolution, 720),
    fps: VIDEO_FPS,
    scenes: cells.map((c, i) => ({
      imageSrc: `${origin}${c.imageUrl}`,
      audioSrc: `${origin}${c.audioUrl}`,
      audioDurationInSeconds: c.audioDuration!,
      text: c.voiceoverText,
      words: storedWordTimings(c.wordTimings),
      ...(c.clipUrl && c.clipDuration
        ? {
            clipSrc: `${origin}${c.clipUrl}`,
            clipDurationInSeconds: c.clipDuration,
            ...(isAiClip(c.imageMadeBy) ? { clipFit: "stretch" as const } : {}),
          }
        : {}),
      ...(chosen.perScene[i] ? { transitionIn: chosen.perScene[i] } : {}),
    })),
    ...(chosen.transition ? { transition: chosen.transition } : {}),
    music: null,
    captions: captionStyle.preset !== "none",
    captionStyle,
  };
}

/** The preview inside its section (preview-section.tsx): the heading with the caption style, the Player, its controls. */
export function LivePreview({ cells, resolution }: { cells: StoryboardCellView[]; resolution: ResolutionValue }) {
  // The Player needs the browser; render it after hydration.
  const [mounted, setMounted] = useState(false);
  const player = useRef<PlayerRef>(null);
  useEffect(() => setMounted(true), []);
  const { style, save } = useCaptionStyle();
  const transitions = useTransitions();
  const props = style ? previewProps(cells, resolution, style, transitions.data ?? undefined) : null;
  const vertical = resolution !== "16:9";
  const durationInFrames = props ? buildTimeline(props).durationInFrames : 0;
  return (
    <>
      <PreviewHeading aside={style ? <CaptionStylePicker style={style} onChange={save} /> : null} />
      {mounted && props ? (
        <div className={vertical ? "mx-auto max-w-xs" : "mx-auto max-w-3xl"}>
          <div data-testid="preview-picture">
            <Player
              ref={player}
              component={StoryboardVideo}
              inputProps={props}
              durationInFrames={durationInFrames}
              compositionWidth={props.width}
              compositionHeight={props.height}
              fps={props.fps}
              clickToPlay
              style={{ width: "100%" }}
            />
          </div>
          <PreviewControls player={player} durationInFrames={durationInFrames} fps={props.fps} />
        </div>
      ) : (
        <p className="text-sm text-slate-400">{!style && allScenesHaveMedia(cells) ? PREVIEW_LOADING : PREVIEW_NOT_READY}</p>
      )}
    </>
  );
}
