// Beyond the spec: the whole video, previewed in the browser with the same Remotion composition the renderer
// uses, so a creator sees pacing, motion and captions before spending minutes on a render.
import { Player, type PlayerRef } from "@remotion/player";
import { useEffect, useRef, useState } from "react";
import { PreviewControls } from "./preview-controls";
import type { ResolutionValue } from "~/lib/video-format";
import type { StoryboardCellView } from "~/server/storyboard.server";
import type { StoryboardVideoProps } from "../../../remotion/props";
import { StoryboardVideo } from "../../../remotion/StoryboardVideo";
import { buildTimeline } from "../../../remotion/timeline";
import { VIDEO_FPS } from "../../../remotion/timing";
import { captionsByDefault, videoSizeFor } from "~/lib/video-format";

/** Props for the composition from the scenes; null until every scene has its image and measured audio. */
export function previewProps(cells: StoryboardCellView[], resolution: ResolutionValue): StoryboardVideoProps | null {
  if (!cells.length || cells.some((c) => !c.imageUrl || !c.audioUrl || !c.audioDuration)) return null;
  const origin = typeof window === "undefined" ? "" : window.location.origin;
  return {
    ...videoSizeFor(resolution, 720),
    fps: VIDEO_FPS,
    scenes: cells.map((c) => ({
      imageSrc: `${origin}${c.imageUrl}`,
      audioSrc: `${origin}${c.audioUrl}`,
      audioDurationInSeconds: c.audioDuration!,
      text: c.voiceoverText,
      ...(c.clipUrl && c.clipDuration ? { clipSrc: `${origin}${c.clipUrl}`, clipDurationInSeconds: c.clipDuration } : {}),
    })),
    music: null,
    captions: captionsByDefault(resolution),
  };
}

export function LivePreview({ cells, resolution }: { cells: StoryboardCellView[]; resolution: ResolutionValue }) {
  // The Player needs the browser; render it after hydration.
  const [mounted, setMounted] = useState(false);
  const player = useRef<PlayerRef>(null);
  useEffect(() => setMounted(true), []);
  const props = previewProps(cells, resolution);
  if (!mounted || !props) return null;
  const vertical = props.height > props.width;
  const durationInFrames = buildTimeline(props).durationInFrames;
  return (
    <section aria-label="Video preview" className="mt-8 rounded-xl border border-slate-800 bg-slate-900 p-4">
      <h2 className="mb-3 text-lg font-semibold">Preview</h2>
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
    </section>
  );
}
