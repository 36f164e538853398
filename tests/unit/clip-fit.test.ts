// AI clips fitted to their scenes (decision 243): the rule both renderers draw by, and who counts as an AI clip.
import { describe, expect, it } from "vitest";
import { isAiClip } from "../../app/lib/clip-prices";
import { defaultTransitionsFor } from "../../app/lib/transitions";
import { buildTimeline, clipStretch, stretchedClipFrame } from "../../app/lib/timeline/timeline";
import { compileTimeline } from "../../workflows/engine/render-fast-compile";

describe("clipStretch and stretchedClipFrame", () => {
  it("leaves a clip as long as its scene or longer at its speed (it is trimmed)", () => {
    expect(clipStretch(60, 45)).toEqual({ num: 1, den: 1 });
    expect(clipStretch(45, 45)).toEqual({ num: 1, den: 1 });
    expect([0, 10, 44].map((k) => stretchedClipFrame(k, 60, { num: 1, den: 1 }))).toEqual([0, 10, 44]);
  });

  it("slows a shorter clip exactly to its scene's length, its last frame on the scene's last frame", () => {
    const stretch = clipStretch(29, 39);
    expect(stretch).toEqual({ num: 39, den: 29 });
    const frames = Array.from({ length: 39 }, (_, k) => stretchedClipFrame(k, 29, stretch));
    expect(frames[0]).toBe(0);
    expect(frames[38]).toBe(28);
    // every clip frame is shown, in order, none skipped
    expect(new Set(frames).size).toBe(29);
    expect(frames.every((n, k) => k === 0 || n - frames[k - 1]! <= 1)).toBe(true);
  });

  it("slows by at most 1.5x, then holds the last frame to the scene's end", () => {
    expect(clipStretch(20, 60)).toEqual({ num: 3, den: 2 });
    const frames = Array.from({ length: 60 }, (_, k) => stretchedClipFrame(k, 20, { num: 3, den: 2 }));
    expect(frames.slice(0, 6)).toEqual([0, 1, 1, 2, 3, 3]);
    // clip frame 19 from frame floor(19 * 1.5) = 28 on, held for the rest of the scene
    expect(frames.indexOf(19)).toBe(28);
    expect(frames.slice(28).every((n) => n === 19)).toBe(true);
  });
});

describe("AI clips in the timeline and the fast renderer", () => {
  const props = (clipFit?: "stretch") =>
    buildTimeline({
      width: 640,
      height: 360,
      fps: 30,
      captions: false,
      music: null,
      scenes: [{ imageSrc: "a.png", audioSrc: "a.wav", audioDurationInSeconds: 1.7, text: "", clipSrc: "a.mp4", clipDurationInSeconds: 1, ...(clipFit ? { clipFit } : {}) }],
    });
  const graph = (t: ReturnType<typeof props>) =>
    compileTimeline(t, { fileFor: (s) => `/m/${s}`, filterScript: "/w/g.txt", output: "/w/o.mp4", encoding: { crf: 18, x264Preset: "veryfast", pixelFormat: "yuv420p", audioBitrate: "192k", audioSampleRate: 48000 } }).filterGraph;

  it("a stretched clip plays once, slowed on the frame clock, then held; a looped one plays again from its start", () => {
    expect(props("stretch").scenes[0]!.layer).toEqual({ kind: "clip", src: "a.mp4", durationInSeconds: 1, fit: "stretch" });
    const stretched = graph(props("stretch"));
    expect(stretched.match(/movie=filename=\/m\/a\.mp4/g)).toHaveLength(1);
    expect(stretched).toContain("settb=1/30,setpts=floor(N*3/2),fps=30");
    expect(stretched).toContain("tpad=stop_mode=clone");
    const looped = graph(props());
    // 60 frames from a 29-frame pass: three passes
    expect(looped.match(/movie=filename=\/m\/a\.mp4/g)).toHaveLength(3);
    expect(looped).not.toContain("floor(N*");
  });
});

describe("isAiClip", () => {
  it("knows the AI clip services' signatures, and no one else's", () => {
    expect(isAiClip("Google Veo (Veo 3.1 Fast)")).toBe(true);
    expect(isAiClip("Runway (Gen-4 Turbo)")).toBe(true);
    expect(isAiClip("Pexels")).toBe(false);
    expect(isAiClip("Runway")).toBe(false);
    expect(isAiClip(null)).toBe(false);
  });
});

describe("defaultTransitionsFor", () => {
  it("crossfades a 16:9 video for half a second and cuts a 9:16 one", () => {
    expect(defaultTransitionsFor("landscape")).toEqual({ kind: "fade", seconds: 0.5, perScene: {} });
    expect(defaultTransitionsFor("shorts").kind).toBe("none");
    expect(defaultTransitionsFor("tiktok").kind).toBe("none");
  });
});
