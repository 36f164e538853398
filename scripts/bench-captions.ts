// npm run bench:captions: what the word-highlight preset costs the fast renderer, against boxed captions and
// against the exact renderer. One 20 s scene (a still image, a tone voiceover, 50 words of narration) at 720x1280
// rendered (1) fast with boxed captions (a picture per two lines), (2) fast with word highlight (a picture per
// word: all rasterised in one Remotion renderFrames pass of the CaptionSheet, laid over by ffmpeg), (3) exact with word highlight. Prints the
// seconds of each, the number of caption pictures, and the seconds per picture. A benchmark, not a test: the load
// average is printed too.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { CaptionStyle } from "../app/lib/caption-style";
import { storyboardVideoSchema } from "../app/lib/timeline/video-props";
import { buildTimeline } from "../app/lib/timeline/timeline";
import { prescaleImage } from "../workflows/engine/render-assets";
import {
  closeBrowser,
  getBrowser,
  getCompositionBundle,
} from "../workflows/engine/render-engine";
import {
  rasteriseCaptions,
  renderTimelineFast,
} from "../workflows/engine/render-fast";
import { renderExact } from "../tests/fixtures/render-parity";
import { toneWav } from "../tests/fixtures/render-project";

const SIZE = { width: 720, height: 1280 };
const SECONDS = 20;
const TEXT =
  "Honeybees tell their sisters where the flowers are with a dance. The angle of the waggle points the way against the sun, and its length tells how far to fly. A whole hive can move its foragers to a new meadow within an hour of the first scout coming home with the news today.";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "reelsmith-bench-captions-"));
const load = () =>
  os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(" ");

async function main() {
  console.log(
    `load average before: ${load()}; ${
      TEXT.split(" ").length
    } words, ${SECONDS} s, ${SIZE.width}x${SIZE.height}`
  );
  const source = path.join(dir, "source.png");
  execFileSync("ffmpeg", [
    "-v",
    "error",
    "-y",
    "-f",
    "lavfi",
    "-i",
    `testsrc2=s=${SIZE.width}x${SIZE.height}:d=1`,
    "-frames:v",
    "1",
    source,
  ]);
  const files = new Map([
    ["scene.png", path.join(dir, "scene.png")],
    ["voice.wav", path.join(dir, "voice.wav")],
  ]);
  await prescaleImage(source, files.get("scene.png")!, SIZE.width, SIZE.height);
  fs.writeFileSync(files.get("voice.wav")!, toneWav(SECONDS, 220));
  const props =
    (captionStyle: CaptionStyle) => (src: (name: string) => string) =>
      storyboardVideoSchema.parse({
        ...SIZE,
        fps: 30,
        captions: true,
        captionStyle,
        scenes: [
          {
            imageSrc: src("scene.png"),
            audioSrc: src("voice.wav"),
            audioDurationInSeconds: SECONDS,
            text: TEXT,
          },
        ],
        music: null,
      });
  await getCompositionBundle();
  await getBrowser();
  for (const preset of ["boxed", "highlight"] as const) {
    const style: CaptionStyle = { preset, position: "bottom", size: "medium" };
    const timeline = buildTimeline(props(style)((n) => files.get(n)!));
    const work = path.join(dir, preset);
    fs.mkdirSync(work);
    let t = Date.now();
    const images = await rasteriseCaptions(timeline, work);
    const rasterise = (Date.now() - t) / 1000;
    fs.mkdirSync(path.join(work, "full"));
    t = Date.now();
    await renderTimelineFast({
      timeline,
      workDir: path.join(work, "full"),
      output: path.join(dir, `${preset}-fast.mp4`),
    });
    const total = (Date.now() - t) / 1000;
    const pictures = new Set(images.map((i) => i.png)).size;
    console.log(
      `fast ${preset}: ${pictures} caption pictures, rasterised in ${rasterise.toFixed(
        1
      )} s (${((rasterise / pictures) * 1000).toFixed(
        0
      )} ms each); whole render ${total.toFixed(1)} s`
    );
  }
  const t = Date.now();
  await renderExact(
    {
      files,
      props: props({ preset: "highlight", position: "bottom", size: "medium" }),
    },
    path.join(dir, "highlight-exact.mp4")
  );
  console.log(
    `exact highlight: whole render ${((Date.now() - t) / 1000).toFixed(1)} s`
  );
  console.log(`load average after: ${load()}`);
}

main()
  .finally(async () => {
    await closeBrowser();
    fs.rmSync(dir, { recursive: true, force: true });
  })
  .catch((e) => {
    console.error(e);
    process.exitCode = 1;
  });
