// A sample project for Remotion Studio (`npm run studio`): three scenes with drawn images, short synthesised
// "voiceovers" and a music bed, all as data: URLs so the preview needs no files and no server.
import type { StoryboardVideoProps } from "../app/lib/timeline/video-props";
import { VIDEO_FPS } from "../app/lib/timeline/timing";

const SAMPLE_RATE = 8000;

/** A mono 16-bit PCM WAV of the given notes (Hz, seconds), as a data: URL. */
function toneWav(notes: readonly [number, number][], gain: number): string {
  const samples = notes.reduce((n, [, seconds]) => n + Math.round(seconds * SAMPLE_RATE), 0);
  const bytes = new Uint8Array(44 + samples * 2);
  const view = new DataView(bytes.buffer);
  const ascii = (at: number, s: string) => [...s].forEach((c, i) => view.setUint8(at + i, c.charCodeAt(0)));
  ascii(0, "RIFF");
  view.setUint32(4, 36 + samples * 2, true);
  ascii(8, "WAVEfmt ");
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true);
  view.setUint16(22, 1, true);
  view.setUint32(24, SAMPLE_RATE, true);
  view.setUint32(28, SAMPLE_RATE * 2, true);
  view.setUint16(32, 2, true);
  view.setUint16(34, 16, true);
  ascii(36, "data");
  view.setUint32(40, samples * 2, true);
  let offset = 44;
  for (const [hz, seconds] of notes) {
    const n = Math.round(seconds * SAMPLE_RATE);
    for (let i = 0; i < n; i++) {
      const envelope = Math.min(1, i / 400, (n - i) / 400);
      view.setInt16(offset, Math.round(Math.sin((2 * Math.PI * hz * i) / SAMPLE_RATE) * envelope * gain * 32767), true);
      offset += 2;
    }
  }
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return `data:audio/wav;base64,${btoa(binary)}`;
}

function sceneSvg(sky: [string, string], ground: string, sun: string, label: string): string {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1280" height="720" viewBox="0 0 1280 720">
<defs><linearGradient id="s" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${sky[0]}"/><stop offset="1" stop-color="${sky[1]}"/></linearGradient></defs>
<rect width="1280" height="720" fill="url(#s)"/><circle cx="940" cy="220" r="110" fill="${sun}"/>
<path d="M0 520 Q320 420 640 510 T1280 480 V720 H0 Z" fill="${ground}"/>
<text x="80" y="660" font-family="sans-serif" font-size="56" font-weight="700" fill="white" opacity="0.85">${label}</text></svg>`;
  return `data:image/svg+xml;base64,${btoa(svg)}`;
}

const scenes = [
  {
    imageSrc: sceneSvg(["#f6d365", "#fda085"], "#3b7d3a", "#fff3b0", "Dawn at the hive"),
    audioSrc: toneWav([[392, 0.6], [440, 0.6], [494, 0.9]], 0.5),
    audioDurationInSeconds: 2.1,
    text: "Every morning, thousands of bees leave the hive. Each one has a job to do.",
  },
  {
    imageSrc: sceneSvg(["#89f7fe", "#66a6ff"], "#2e6b3f", "#ffffff", "Into the meadow"),
    audioSrc: toneWav([[523, 0.5], [494, 0.5], [440, 1.0]], 0.5),
    audioDurationInSeconds: 2.0,
    text: "Foragers fly up to five kilometres to find nectar. They remember every flower.",
  },
  {
    imageSrc: sceneSvg(["#30cfd0", "#330867"], "#1d3b2a", "#ffd56b", "Home by dusk"),
    audioSrc: toneWav([[440, 0.7], [392, 0.7], [330, 1.1]], 0.5),
    audioDurationInSeconds: 2.5,
    text: "At dusk they return, and the hive hums with the day's harvest.",
  },
];

export const fixtureProps: StoryboardVideoProps = {
  width: 1280,
  height: 720,
  fps: VIDEO_FPS,
  scenes,
  music: { src: toneWav([[196, 1], [220, 1], [262, 1], [247, 1]], 0.6), volume: 0.3 },
  captions: true,
};
