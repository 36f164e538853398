// Registers the composition. Duration and size come from the props (calculateMetadata), so the same component
// serves Remotion Studio (with the fixture project), the Player and the renderer.
import { Composition, type CalculateMetadataFunction } from "remotion";
import { fixtureProps } from "./fixture";
import { COMPOSITION_ID, storyboardVideoSchema, type StoryboardVideoProps } from "./props";
import { StoryboardVideo } from "./StoryboardVideo";
import { totalDurationInFrames } from "./timing";

export const calculateMetadata: CalculateMetadataFunction<StoryboardVideoProps> = ({ props }) => ({
  durationInFrames: totalDurationInFrames(
    props.scenes.map((s) => s.audioDurationInSeconds),
    props.fps,
  ),
  fps: props.fps,
  width: props.width,
  height: props.height,
});

export function RemotionRoot() {
  return (
    <Composition
      id={COMPOSITION_ID}
      component={StoryboardVideo}
      schema={storyboardVideoSchema}
      defaultProps={fixtureProps}
      calculateMetadata={calculateMetadata}
    />
  );
}
