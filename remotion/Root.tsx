// Registers the compositions. Duration and size come from the props (calculateMetadata), so the same component
// serves Remotion Studio (with the fixture project), the Player and the renderer. CaptionSheet is every distinct
// caption of a video, one per frame on a transparent background, rasterised in one pass by the fast renderer.
import { Composition, type CalculateMetadataFunction } from "remotion";
import { BRAND_CARD_ID, BrandCardStill, brandCardStillSchema, type BrandCardStillProps } from "./BrandCard";
import { CAPTION_SHEET_ID, CaptionSheet, captionSheetSchema, type CaptionSheetProps } from "./Caption";
import { fixtureProps } from "./fixture";
import { COMPOSITION_ID, storyboardVideoSchema, type StoryboardVideoProps } from "../app/lib/timeline/video-props";
import { StoryboardVideo } from "./StoryboardVideo";
import { buildTimeline } from "../app/lib/timeline/timeline";

export const calculateMetadata: CalculateMetadataFunction<StoryboardVideoProps> = ({ props }) => ({
  durationInFrames: buildTimeline(props).durationInFrames,
  fps: props.fps,
  width: props.width,
  height: props.height,
});

const captionSheetMetadata: CalculateMetadataFunction<CaptionSheetProps> = ({ props }) => ({
  durationInFrames: props.captions.length,
  fps: fixtureProps.fps,
  width: props.width,
  height: props.height,
});

const brandCardMetadata: CalculateMetadataFunction<BrandCardStillProps> = ({ props }) => ({ durationInFrames: 1, fps: fixtureProps.fps, width: props.width, height: props.height });

// the fixture's captions as the fast renderer would rasterise them, for a look at the sheet in Studio
const fixtureOverlays = buildTimeline(fixtureProps).overlays.map((o) => ({ lines: o.lines, highlightWord: o.highlightWord, style: o.style }));
const fixtureCaptions = fixtureOverlays.length ? fixtureOverlays : [{ lines: [fixtureProps.scenes[0]!.text] }];

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
        id={CAPTION_SHEET_ID}
        component={CaptionSheet}
        schema={captionSheetSchema}
        defaultProps={{ width: fixtureProps.width, height: fixtureProps.height, captions: fixtureCaptions }}
        calculateMetadata={captionSheetMetadata}
      />
      <Composition
        id={BRAND_CARD_ID}
        component={BrandCardStill}
        schema={brandCardStillSchema}
        defaultProps={{ width: fixtureProps.width, height: fixtureProps.height, card: { kind: "card" as const, color: "#1E3A8A", textColor: "#FFFFFF", text: "Reelsmith" } }}
        calculateMetadata={brandCardMetadata}
      />
    </>
  );
}
