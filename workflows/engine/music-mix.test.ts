import { describe, expect, it } from "vitest";
import { fadeOutSeconds, mixArguments } from "./music-mix";

const info = { durationSeconds: 60, hasAudio: true, width: 1920, height: 1080 };
const request = { videoPath: "in.mp4", musicPath: "music.wav", outputPath: "out.mp4", volumeLevel: 5, voice: { kind: "video" as const } };

describe("mixArguments", () => {
  it("copies the video stream and encodes only the audio, cut to the video's length", () => {
    const args = mixArguments(request, info, { video: 2, music: 2, clips: [] });
    expect(args.join(" ")).toContain("-map 0:v:0 -map [mixed] -c:v copy -c:a aac");
    expect(args.join(" ")).toContain("-t 60.000");
    expect(args.join(" ")).toContain("-stream_loop -1 -i music.wav");
  });

  it("sets the music's gain from the volume, fades it out over the last 2 s and ducks it under the voice", () => {
    const args = mixArguments(request, info, { video: 2, music: 2, clips: [] });
    const graph = args[args.indexOf("-filter_complex") + 1]!;
    expect(graph).toContain("volume=0.0500");
    expect(graph).toContain("afade=t=out:st=58.000:d=2.000");
    expect(graph).toContain("[music][key]sidechaincompress");
    expect(graph).toContain("amix=inputs=2:duration=first:normalize=0");
  });

  it("copies a mono voice to both channels and rebuilds the voice from scene clips when asked", () => {
    const clips = { kind: "clips" as const, clips: [{ path: "a.wav", startSeconds: 0 }, { path: "b.wav", startSeconds: 2.5 }] };
    const args = mixArguments({ ...request, voice: clips }, info, { video: 2, music: 1, clips: [1, 1] });
    const graph = args[args.indexOf("-filter_complex") + 1]!;
    expect(graph).toContain("[3:a]pan=stereo|c0=c0|c1=c0");
    expect(graph).toContain("adelay=2500:all=1");
    expect(graph).toContain("[1:a]pan=stereo|c0=c0|c1=c0");
  });

  it("writes the mixed sound alone as float PCM when asked for the sound, no picture mapped", () => {
    const args = mixArguments({ ...request, outputPath: "sound.wav", output: "sound" }, info, { video: 2, music: 2, clips: [] });
    expect(args.join(" ")).toContain("-map [mixed] -c:a pcm_f32le -t 60.000 -f wav sound.wav");
    expect(args).not.toContain("0:v:0");
    expect(args).not.toContain("+faststart");
  });

  it("fades a very short video over a quarter of it", () => {
    expect(fadeOutSeconds(4)).toBe(1);
    expect(fadeOutSeconds(60)).toBe(2);
  });
});
