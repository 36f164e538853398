// Transitions between scenes in the timeline and the fast renderer's graph (decision 225).
import { describe, expect, it } from "vitest";
import { storyboardVideoSchema, type StoryboardVideoProps } from "../../app/lib/timeline/video-props";
import { buildTimeline, tailFrames, transitionLook } from "../../app/lib/timeline/timeline";
import { compileTimeline } from "./render-fast-compile";
import { sliceTimeline } from "./render-chunks";

const encoding = { crf: 18, x264Preset: "veryfast", pixelFormat: "yuv420p", audioBitrate: "320k", audioSampleRate: 48000 };

function props(over: Partial<StoryboardVideoProps> = {}, seconds = [1, 1, 0.2, 1]): StoryboardVideoProps {
  return storyboardVideoSchema.parse({
    width: 640,
    height: 360,
    fps: 30,
    captions: false,
    music: null,
    scenes: seconds.map((s, i) => ({ imageSrc: `img-${i}.png`, audioSrc: `voice-${i}.wav`, audioDurationInSeconds: s, text: `Scene ${i + 1}` })),
    ...over,
  });
}

describe("transitions in the timeline", () => {
  it("keep every scene's start and the video's length; none for the first scene; at most half of either scene", () => {
    const cut = buildTimeline(props());
    const faded = buildTimeline(props({ transition: { kind: "fade", seconds: 0.5 } }));
    expect(faded.scenes.map((s) => s.fromFrame)).toEqual(cut.scenes.map((s) => s.fromFrame));
    expect(faded.durationInFrames).toBe(cut.durationInFrames);
    // 15 frames asked; the third scene is short (0.2 s of voice), so the transitions into and out of it are shorter
    const lengths = faded.scenes.map((s) => s.transitionIn?.durationInFrames ?? 0);
    const third = faded.scenes[2]!.durationInFrames;
    expect(lengths).toEqual([0, 15, Math.floor(third / 2), Math.floor(third / 2)]);
    expect(tailFrames(faded, 0)).toBe(15);
    expect(tailFrames(faded, 3)).toBe(0);
  });

  it("a scene's own choice overrides the video's, and 'none' cuts", () => {
    const p = props({ transition: { kind: "fade", seconds: 0.4 } });
    p.scenes[1] = { ...p.scenes[1]!, transitionIn: "slide" };
    p.scenes[3] = { ...p.scenes[3]!, transitionIn: "none" };
    expect(buildTimeline(p).scenes.map((s) => s.transitionIn?.kind ?? null)).toEqual([null, "slide", "fade", null]);
  });

  it("draws xfade's numbers: the old scene alone at the first frame, whole-pixel slides, a zoom into the centre", () => {
    expect(transitionLook({ kind: "fade", durationInFrames: 10 }, 0, 640)).toMatchObject({ newOpacity: 0 });
    expect(transitionLook({ kind: "fade", durationInFrames: 10 }, 5, 640).newOpacity).toBeCloseTo(0.5, 5);
    expect(transitionLook({ kind: "slide", durationInFrames: 10 }, 3, 640)).toMatchObject({ newShift: 448, oldShift: -192 });
    expect(transitionLook({ kind: "zoom", durationInFrames: 10 }, 0, 640)).toMatchObject({ oldZoom: 1, newOpacity: 0 });
    expect(transitionLook({ kind: "zoom", durationInFrames: 10 }, 3, 640).oldZoom).toBeGreaterThan(1);
  });
});

describe("transitions in the fast renderer's graph", () => {
  const compile = (timeline: ReturnType<typeof buildTimeline>) =>
    compileTimeline(timeline, { fileFor: (src) => `/w/${src}`, filterScript: "/w/graph.txt", output: "/w/out.mp4", encoding }).filterGraph;

  it("with hard cuts, the graph is one concat as before", () => {
    const graph = compile(buildTimeline(props()));
    expect(graph).not.toContain("xfade");
    expect(graph).toContain("concat=n=4:v=1:a=0");
  });

  it("xfade over each transition's frames only, the rest concatenated in order; the scene before drawn longer", () => {
    const p = props({ transition: { kind: "fade", seconds: 0.5 } });
    p.scenes[2] = { ...p.scenes[2]!, transitionIn: "none" };
    p.scenes[3] = { ...p.scenes[3]!, transitionIn: "zoom" };
    const timeline = buildTimeline(p);
    const graph = compile(timeline);
    const second = timeline.scenes[1]!;
    const first = timeline.scenes[0]!;
    // the first scene's 15 extra frames (its last frame held: cloned in the graph, as xfade asks for each) and the
    // second's first 15 are the only frames the crossfade draws
    expect(graph).toContain(`[t0in]trim=start_frame=${first.durationInFrames - 1}:end_frame=${first.durationInFrames},tpad=stop_mode=clone:stop=15,`);
    expect(graph).toMatch(/\[t0in\][^;]*,trim=end_frame=15\[t0\]/);
    expect(graph).toContain(`[h1in]trim=start_frame=0:end_frame=15,`);
    expect(graph).toContain("[t0][h1]xfade=transition=fade:duration=0.5:offset=0,format=yuv420p[x1]");
    expect(graph).toContain(`[b1in]trim=start_frame=15:end_frame=${second.durationInFrames},`);
    expect(graph).toContain("[t2][h3]xfade=transition=zoomin");
    // the third scene cuts in: no xfade for it, and one concat joins everything in order
    expect(graph.match(/xfade=/g)).toHaveLength(2);
    expect(graph).toContain("[b0][x1][b1][b2][x3][b3]concat=n=6:v=1:a=0,");
    // the raw picture stream carries each scene's own frames only: a tail is never drawn, so it never waits in
    // ffmpeg for the next scene's head (about 100 MB a transition at 1080p, kept by ffmpeg's frame pool)
    expect(graph).toContain(`segment=frames=${timeline.scenes[0]!.durationInFrames}|`);
    expect(graph).not.toContain("color=");
  });

  it("a chunk cuts hard into its first scene", () => {
    const timeline = buildTimeline(props({ transition: { kind: "slide", seconds: 0.5 } }));
    const chunk = sliceTimeline(timeline, { fromScene: 1, toScene: 3 });
    expect(chunk.scenes.map((s) => s.transitionIn?.kind ?? null)).toEqual([null, "slide"]);
  });
});
