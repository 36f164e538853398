// npm run bench:music: the time to mix background music into a 60 s 1080p video, the way
// POST /api/render-background-music does it (workflows/engine/music-mix.ts: video stream copied, music looped,
// faded and ducked under the voice). The music is a track from the offline composer; the video is made with
// ffmpeg beforehand (not timed). A benchmark, not a test: the figures depend on the machine and its load.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { renderOfflineTrack } from "~/providers/music/offline.server";
import { mixMusicIntoVideo } from "../workflows/engine/music-mix";
import { makeVoiceVideo } from "../tests/fixtures/music-project";

const SECONDS = 60;
const MUSIC_SECONDS = 45; // shorter than the video, so the mix loops it
const GOAL_SECONDS = 10;

const workDir = fs.mkdtempSync(path.join(os.tmpdir(), "reelsmith-bench-music-"));
process.once("exit", () => fs.rmSync(workDir, { recursive: true, force: true }));

const video = path.join(workDir, "render.mp4");
const music = path.join(workDir, "music.wav");
const output = path.join(workDir, "mixed.mp4");

console.log(`preparing a ${SECONDS} s 1920x1080 video with a voice track and a ${MUSIC_SECONDS} s offline music track (not timed)...`);
await makeVoiceVideo(video, { seconds: SECONDS, voiceSeconds: SECONDS / 2, width: 1920, height: 1080 });
fs.writeFileSync(music, (await renderOfflineTrack("calm piano with soft strings", MUSIC_SECONDS, "bench")).audio);

const runs: number[] = [];
for (let i = 0; i < 3; i++) {
  const { seconds } = await mixMusicIntoVideo({ videoPath: video, musicPath: music, outputPath: output, volumeLevel: 5, voice: { kind: "video" } });
  runs.push(seconds);
}
const probe = (file: string) => Number(execFileSync("ffprobe", ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", file]).toString());
const best = Math.min(...runs);
console.log(`mixed music into a ${SECONDS} s 1080p video in ${runs.map((s) => `${s.toFixed(2)} s`).join(", ")} (best ${best.toFixed(2)} s, ${(SECONDS / best).toFixed(1)}x real time)`);
console.log(`output ${probe(output).toFixed(2)} s long (original ${probe(video).toFixed(2)} s); goal: under ${GOAL_SECONDS} s -> ${best < GOAL_SECONDS ? "met" : "NOT met"}`);
