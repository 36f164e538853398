// Registers the compositions. Duration and size come from the props (calculateMetadata), so the same component
// serves Remotion Studio (with the fixture project), the Player and the renderer. CaptionOverlay is one caption
// line on a transparent frame, rasterised once per line by the fast renderer.
import { Composition, type CalculateMetadataFunction } from "remotion";
import { CAPTION_OVERLAY_ID, CaptionOverlay, captionOverlaySchema, type CaptionOverlayProps } from "./Caption";
import { fixtureProps } from "./fixture";
import { COMPOSITION_ID, storyboardVideoSchema, type StoryboardVideoProps } from "./props";
import { StoryboardVideo } from "./StoryboardVideo";
import { buildTimeline } from "./timeline";

export const calculateMetadata: CalculateMetadataFunction<StoryboardVideoProps> = ({ props }) => ({
  durationInFrames: buildTimeline(props).durationInFrames,
  fps: props.fps,
  width: props.width,
  height: props.height,
});

const captionMetadata: CalculateMetadataFunction<CaptionOverlayProps> = ({ props }) => ({
  durationInFrames: 1,
  fps: fixtureProps.fps,
  width: props.width,
  height: props.height,
});

export function RemotionRoot() {
  return (
    <>
      <Composition
        id={COMPOSITION_ID}
        component={StoryboardVideo}
        schema={storyboardVideoSchema}
        defaultProps={fixtureProps}
        calculateMetadata={calculateMetadata}
      />
      <Composition
        id={CAPTION_OVERLAY_ID}
        component={CaptionOverlay}
        schema={captionOverlaySchema}
        defaultProps={{ width: fixtureProps.width, height: fixtureProps.height, text: fixtureProps.scenes[0]!.text }}
        calculateMetadata={captionMetadata}
      />
    </>
  );
}
