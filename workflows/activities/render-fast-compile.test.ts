// The fast renderer's compiler: the same motion as the composition, and an ffmpeg run that draws exactly the
// timeline's frames, captions and audio.
import { describe, expect, it } from "vitest";
import { buildTimeline, MOVES, visibleRectAt, type Timeline } from "../../remotion/timeline";
import { compileTimeline, fastRendererSupport, perspectiveCorners } from "./render-fast-compile";

/** Evaluates the ffmpeg expressions we emit (numbers, + - * /, parentheses, clip(), the frame variable `in`). */
function evaluate(expression: string, frame: number): number {
  const js = expression.replace(/\bin\b/g, "frame");
  return new Function("clip", "frame", `return ${js};`)((x: number, lo: number, hi: number) => Math.min(Math.max(x, lo), hi), frame) as number;
}

const timeline = buildTimeline({
  width: 640,
  height: 360,
  fps: 30,
  scenes: [
    { imageSrc: "/m/a.png", audioSrc: "/m/a.wav", audioDurationInSeconds: 1, text: "Bees dance. They point the way." },
    { imageSrc: "/m/b.png", audioSrc: "/m/b.wav", audioDurationInSeconds: 1.4, text: "Every flower counts!" },
  ],
  music: { src: "/m/music.wav", volume: 0.3 },
  captions: true,
});

describe("perspectiveCorners", () => {
  it("is the composition's visible rectangle, frame by frame, shifted from pixel centres to pixel indices", () => {
    for (const move of MOVES) {
      const corners = perspectiveCorners(move, 90, 640, 360);
      for (const frame of [0, 1, 17, 45, 88, 89, 120]) {
        const rect = visibleRectAt(move, frame, 90, 640, 360);
        const x0 = rect.left + (0.5 * rect.width) / 640 - 0.5;
        const y0 = rect.top + (0.5 * rect.height) / 360 - 0.5;
        expect(evaluate(corners.x0, frame)).toBeCloseTo(x0, 6);
        expect(evaluate(corners.y0, frame)).toBeCloseTo(y0, 6);
        expect(evaluate(corners.x3, frame)).toBeCloseTo(x0 + rect.width, 6);
        expect(evaluate(corners.y3, frame)).toBeCloseTo(y0 + rect.height, 6);
      }
    }
  });
});

describe("compileTimeline", () => {
  const args = compileTimeline(timeline, {
    fileFor: (src) => src,
    captions: timeline.overlays.map((_, k) => ({ png: `/w/caption-${k}.png`, x: 100, y: 280 })),
    output: "/w/out.mp4",
    encoding: { crf: 18, x264Preset: "veryfast", pixelFormat: "yuv420p", audioBitrate: "320k", audioSampleRate: 48000 },
  });
  const graph = args[args.indexOf("-filter_complex") + 1]!;

  it("renders exactly the timeline's frames, with the shared crf and preset", () => {
    expect(graph).toContain(`trim=end_frame=${timeline.durationInFrames}[vout]`);
    expect(args[args.indexOf("-map") + 1]).toBe("[vout]");
    expect(args[args.indexOf("-crf") + 1]).toBe("18");
    expect(args[args.indexOf("-preset") + 1]).toBe("veryfast");
    expect(args.at(-1)).toBe("/w/out.mp4");
    // each image is decoded once and repeated for its scene's frames
    expect(graph).toContain(`loop=loop=${timeline.scenes[0]!.durationInFrames - 1}:size=1`);
    expect(graph).toContain(`concat=n=2:v=1:a=0`);
  });

  it("lays each caption over exactly its frames", () => {
    for (const o of timeline.overlays) expect(graph).toContain(`enable='between(n,${o.fromFrame},${o.fromFrame + o.durationInFrames - 1})'`);
    expect(args.filter((a) => a.startsWith("/w/caption-"))).toHaveLength(timeline.overlays.length);
  });

  it("starts the second voiceover at its scene, loops and fades the music, and pads the mix to the video's length", () => {
    expect(graph).toContain(`adelay=delays=${(timeline.scenes[1]!.fromFrame / 30) * 1000}:all=1`);
    expect(args.join(" ")).toContain("-stream_loop -1 -i /m/music.wav");
    expect(graph).toContain("afade=t=in:st=0:d=");
    expect(graph).toContain(`apad=whole_len=${(timeline.durationInFrames / 30) * 48000}`);
  });
});

describe("fastRendererSupport", () => {
  it("supports stills, clips of known length, captions and audio; sends a clip of unknown length to the exact renderer, saying which scene", () => {
    expect(fastRendererSupport(timeline)).toEqual({ supported: true });
    const withClip = (durationInSeconds?: number) => ({
      ...timeline,
      scenes: [timeline.scenes[0]!, { ...timeline.scenes[1]!, layer: { kind: "clip" as const, src: "/m/c.mp4", ...(durationInSeconds ? { durationInSeconds } : {}) } }],
    });
    expect(fastRendererSupport(withClip(1.5))).toEqual({ supported: true });
    expect(fastRendererSupport(withClip())).toEqual({ supported: false, reason: "scene 2 is a video clip of unknown length, which only the exact renderer draws" });
  });
});

describe("compileTimeline with a clip scene", () => {
  // scene 2 becomes a 1.0 s clip: 29 frames a pass (a frame short of its end, as the composition's <Loop>)
  const second = timeline.scenes[1]!;
  const withClip: Timeline = { ...timeline, scenes: [timeline.scenes[0]!, { ...second, layer: { kind: "clip", src: "/m/c.mp4", durationInSeconds: 1 } }] };
  const args = compileTimeline(withClip, {
    fileFor: (src) => src,
    captions: withClip.overlays.map((_, k) => ({ png: `/w/caption-${k}.png`, x: 100, y: 280 })),
    output: "/w/out.mp4",
    encoding: { crf: 18, x264Preset: "veryfast", pixelFormat: "yuv420p", audioBitrate: "320k", audioSampleRate: 48000 },
  });
  const graph = args[args.indexOf("-filter_complex") + 1]!;
  const passes = Math.ceil(second.durationInFrames / 29);

  it("plays the clip muted from its start, once per pass until its scene is filled, covering the frame", () => {
    expect(passes).toBeGreaterThan(1);
    expect(args.join(" ").split("-an -i /m/c.mp4")).toHaveLength(passes + 1);
    expect(graph).toContain("scale=640:360:force_original_aspect_ratio=increase");
    expect(graph).toContain("crop=640:360");
    expect(graph.match(/trim=end_frame=29,setpts=PTS-STARTPTS/g)).toHaveLength(passes);
    expect(graph).toContain(`concat=n=${passes}:v=1:a=0,tpad=stop_mode=clone:stop=${second.durationInFrames},trim=end_frame=${second.durationInFrames}`);
  });
});
