// The fast renderer's compiler: an ffmpeg run that draws exactly the timeline's frames, captions and audio (the
// moving images' frames themselves: pan-zoom.test.ts).
import { describe, expect, it } from "vitest";
import { buildTimeline, type Timeline } from "../../app/lib/timeline/timeline";
import { captionConcat, compileTimeline, fastRendererSupport, graphPath, IMAGE_FRAMES_INPUT, movingImageScenes } from "./render-fast-compile";

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
const encoding = { crf: 18, x264Preset: "veryfast", pixelFormat: "yuv420p", audioBitrate: "320k", audioSampleRate: 48000 };
const compiled = (t: Timeline) =>
  compileTimeline(t, {
    fileFor: (src) => src,
    filterScript: "/w/graph.txt",
    captionStream: { ffconcat: "/w/captions.ffconcat", x: 100, y: 280 },
    output: "/w/out.mp4",
    encoding,
  });

/** Plays an ffconcat list as the concat demuxer does: each entry starts where the previous ended, in the pictures' time base. */
function framesOf(ffconcat: string, fps: number, total: number): string[] {
  const entries: { file: string; us: number }[] = [];
  for (const line of ffconcat.split("\n")) {
    const file = /^file '(.*)'$/.exec(line);
    if (file) entries.push({ file: file[1]!, us: NaN });
    const duration = /^duration (\d+)\.(\d{6})$/.exec(line);
    if (duration) entries.at(-1)!.us = Number(duration[1]) * 1_000_000 + Number(duration[2]);
  }
  const frames: string[] = [];
  let startUs = 0;
  entries.forEach(({ file, us }, n) => {
    const first = Math.round((startUs * fps) / 1_000_000); // av_rescale_q to 1/fps, rounding to nearest
    const last = n + 1 < entries.length ? Math.round(((startUs + us) * fps) / 1_000_000) : total;
    for (let f = first; f < last; f++) frames[f] = file;
    startUs += Number.isNaN(us) ? 0 : us;
  });
  return frames;
}

describe("compileTimeline", () => {
  const { args, filterGraph: graph } = compiled(timeline);

  it("renders exactly the timeline's frames, with the shared crf and preset, the graph through a file", () => {
    expect(args[args.indexOf("-filter_complex_script") + 1]).toBe("/w/graph.txt");
    expect(args).not.toContain("-filter_complex");
    expect(graph).toContain(`trim=end_frame=${timeline.durationInFrames}[vout]`);
    expect(args[args.indexOf("-map") + 1]).toBe("[vout]");
    expect(args[args.indexOf("-crf") + 1]).toBe("18");
    expect(args[args.indexOf("-preset") + 1]).toBe("veryfast");
    expect(args.at(-1)).toBe("/w/out.mp4");
    // the moving images are one raw stream (pan-zoom.ts draws it), cut after the first scene's frames
    const first = timeline.scenes[0]!.durationInFrames;
    expect(args.join(" ")).toContain(`-f rawvideo -pix_fmt yuv420p -s 640x360 -framerate 30 -i ${IMAGE_FRAMES_INPUT}`);
    expect(graph).toContain(`[0:v]segment=frames=${first}[m0][m1]`);
    expect(graph).toContain("[m0]setparams=colorspace=bt709:range=tv,setsar=1,setpts=N/(30*TB)[s0]");
    expect(graph).not.toContain("a.png");
    expect(movingImageScenes(timeline).map((scene) => scene.durationInFrames)).toEqual(timeline.scenes.map((scene) => scene.durationInFrames));
    expect(graph).toContain("[s0][s1]concat=n=2:v=1:a=0");

  });

  it("lays every caption over with one input and one overlay", () => {
    expect(timeline.overlays.length).toBeGreaterThan(2);
    // the pictures' stream and the captions' stream: whatever the timeline's length
    expect(args.filter((a) => a === "-i")).toEqual(["-i", "-i"]);
    expect(args.join(" ")).toContain("-f concat -safe 0 -i /w/captions.ffconcat");
    expect(graph).toContain("[1:v]settb=1/30,scale=out_color_matrix=bt709:out_range=tv,format=yuva420p[captions]");
    expect(graph.match(/overlay=/g)).toHaveLength(1);
    expect(graph).toContain("[base][captions]overlay=x=100:y=280:eof_action=repeat:format=yuv420[captioned]");
  });

  it("keeps the argument list the same size at 240 scenes, the graph growing in its file", () => {
    const long = buildTimeline({
      width: 640,
      height: 360,
      fps: 30,
      scenes: Array.from({ length: 240 }, (_, i) => ({ imageSrc: `/m/scene-${i}.png`, audioSrc: `/m/voice-${i}.wav`, audioDurationInSeconds: 14.7, text: "A long scene, said over many words. It goes on and on. ".repeat(5) })),
      music: { src: "/m/music.wav", volume: 0.3 },
      captions: true,
    });
    const longer = compiled(long);
    expect(longer.args).toEqual(args);
    expect(longer.filterGraph.length).toBeGreaterThan(64 * 1024);
  });

  it("starts the second voiceover at its scene, loops and fades the music, and pads the mix to the video's length", () => {
    // the voiceovers end to end: the first padded to the sample where the second scene starts
    const second = (timeline.scenes[1]!.fromFrame / 30) * 48000;
    expect(graph).toContain(`amovie=filename=/m/a.wav,aformat=sample_fmts=fltp:sample_rates=48000:channel_layouts=stereo,atrim=end=${timeline.scenes[0]!.durationInFrames / 30},asetpts=PTS-STARTPTS,volume=1,apad=whole_len=${second},atrim=end_sample=${second}[a0]`);
    expect(graph).toContain("[a0][a1]concat=n=2:v=0:a=1[voice]");
    expect(graph).toContain("[voice][a2]amix=inputs=2");
    expect(graph).not.toContain("adelay");
    expect(graph).toContain("amovie=filename=/m/music.wav:loop=0,");
    expect(graph).toContain("amovie=filename=/m/b.wav,");
    expect(graph).toContain("afade=t=in:st=0:d=");
    expect(graph).toContain(`apad=whole_len=${(timeline.durationInFrames / 30) * 48000},atrim=end_sample=${(timeline.durationInFrames / 30) * 48000},asetnsamples=n=1024:p=0[aout]`);
    expect(args.join(" ")).toContain("-c:a aac -profile:a aac_low -aac_coder fast -b:a 384k -ar 48000 -ac 2");
  });

  it("writes a chunked render's sound alone as 24-bit PCM at the delivery's rate, the same mix, for the loudness step to encode once", () => {
    const sound = compileTimeline(
      { ...timeline, overlays: [] },
      { fileFor: (src) => src, filterScript: "/w/graph.txt", output: "/w/sound.wav", encoding, streams: "audio", audioFormat: "pcm" },
    );
    const aac = compileTimeline({ ...timeline, overlays: [] }, { fileFor: (src) => src, filterScript: "/w/graph.txt", output: "/w/sound.m4a", encoding, streams: "audio" });
    expect(sound.filterGraph).toBe(aac.filterGraph);
    expect(sound.filterGraph).not.toContain("[vout]");
    const line = sound.args.join(" ");
    expect(line).toContain("-map [aout] -c:a pcm_s24le -ar 48000 -ac 2 /w/sound.wav");
    expect(line).not.toContain("aac");
    expect(line).not.toContain("faststart");
  });

  it("writes a one-piece render's picture with its sound as PCM for the loudness step to encode once (decision 192)", () => {
    const pcm = compileTimeline({ ...timeline, overlays: [] }, { fileFor: (src) => src, filterScript: "/w/graph.txt", output: "/w/video.mov", encoding, audioFormat: "pcm" });
    const delivered = compileTimeline({ ...timeline, overlays: [] }, { fileFor: (src) => src, filterScript: "/w/graph.txt", output: "/w/video.mp4", encoding });
    expect(pcm.filterGraph).toBe(delivered.filterGraph);
    const line = pcm.args.join(" ");
    expect(line).toContain("-map [vout] -map [aout]");
    expect(line).toContain("-c:a pcm_s24le -ar 48000 -ac 2 /w/video.mov");
    expect(line).toContain("-c:v libx264");
    expect(line).not.toContain("aac");
    expect(delivered.args.join(" ")).toContain("-movflags +faststart /w/video.mp4");
  });
});

describe("graphPath", () => {
  it("escapes a path for the option parser, then for the graph parser", () => {
    expect(graphPath("/tmp/a b/scene-1.png")).toBe("/tmp/a b/scene-1.png");
    // ffmpeg-filters' example: ' and : escaped once for the option, then every \\ and ' again, and , for the graph
    expect(graphPath("/x/it's:a,b[1];c")).toBe("/x/it\\\\\\'s\\\\:a\\,b\\[1\\]\\;c");
  });
});

describe("captionConcat", () => {
  it("shows each caption on exactly its frames and the blank between, with no drift over an hour", () => {
    for (const fps of [24, 25, 30, 60]) {
      const overlays = Array.from({ length: 2000 }, (_, k) => ({ ...timeline.overlays[0]!, fromFrame: k * 53 + (k % 3), durationInFrames: 40 + (k % 11) }));
      const long: Timeline = { ...timeline, fps, durationInFrames: 2000 * 53 + 7, overlays };
      const list = captionConcat(long, overlays.map((_, k) => `c-${k % 7}.png`), "blank.png");
      expect(list.startsWith("ffconcat version 1.0\n")).toBe(true);
      const frames = framesOf(list, fps, long.durationInFrames);
      expect(frames).toHaveLength(long.durationInFrames);
      const expected: string[] = new Array(long.durationInFrames).fill("blank.png");
      overlays.forEach((o, k) => expected.fill(`c-${k % 7}.png`, o.fromFrame, o.fromFrame + o.durationInFrames));
      expect(frames).toEqual(expected);
    }
  });

  it("says which caption was not rasterised", () => {
    expect(() => captionConcat(timeline, [], "blank.png")).toThrow("caption 1 was not rasterised");
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
  const { filterGraph: graph } = compiled(withClip);
  const passes = Math.ceil(second.durationInFrames / 29);

  it("plays the clip muted from its start, once per pass until its scene is filled, covering the frame", () => {
    expect(passes).toBeGreaterThan(1);
    expect(graph.split("movie=filename=/m/c.mp4:streams=dv,")).toHaveLength(passes + 1);
    expect(graph).toContain("scale=640:360:force_original_aspect_ratio=increase");
    expect(graph).toContain("crop=640:360");
    expect(graph.match(/trim=end_frame=29,setpts=PTS-STARTPTS/g)).toHaveLength(passes);
    expect(graph).toContain(`concat=n=${passes}:v=1:a=0,tpad=stop_mode=clone:stop=${second.durationInFrames},trim=end_frame=${second.durationInFrames}`);
    expect(graph).toContain("[s0][s1]concat=n=2:v=1:a=0");
  });
});
