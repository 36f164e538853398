// npm run bench:providers — throughput of the offline providers on this machine (CPU time, one process).
// Prints: script words per second, seconds of speech per CPU second, images per second, seconds of music per second.
import { performance } from "node:perf_hooks";
import { planChunks, targetWordsFor } from "~/lib/script";
import { createOfflineImageProvider } from "~/providers/image/offline-scene.server";
import { createOfflineMusicProvider } from "~/providers/music/offline.server";
import { createFliteSpeechProvider } from "~/providers/speech/flite.server";
import { countWords, splitSentences } from "~/providers/text/language";
import { createOfflineTextProvider } from "~/providers/text/offline";

const cpuSeconds = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};

async function measure<T>(label: string, run: () => Promise<T>): Promise<{ result: T; wall: number; cpu: number }> {
  const c0 = cpuSeconds();
  const t0 = performance.now();
  const result = await run();
  const wall = (performance.now() - t0) / 1000;
  const cpu = cpuSeconds() - c0;
  console.log(`${label}: ${wall.toFixed(2)} s wall, ${cpu.toFixed(2)} s CPU`);
  return { result, wall, cpu };
}

const video = { title: "The Secret Life of Honeybees", topic: "How honeybees communicate, build hives and pollinate crops" };

const text = createOfflineTextProvider();
const script = await measure("script, 60-minute video", async () => {
  const targets = planChunks(targetWordsFor(3600));
  const chunks: string[] = [];
  for (let i = 0; i < targets.length; i++) chunks.push(await text.writeScriptChunk({ ...video, chunkIndex: i, totalChunks: targets.length, targetWords: targets[i]!, seed: "bench" }));
  return text.proofreadScript({ title: video.title, text: chunks.join("\n\n") });
});
const words = countWords(script.result);

const speech = createFliteSpeechProvider();
const passages = splitSentences(script.result).slice(0, 12);
await speech.synthesize({ text: "Warm up." }); // compile the WebAssembly module once, outside the measurement
const spoken = await measure(`speech, ${passages.length} sentences`, async () => {
  let seconds = 0;
  for (const p of passages) seconds += (await speech.synthesize({ text: p, voiceId: "rms" })).durationSeconds;
  return seconds;
});

const images = createOfflineImageProvider();
const imageCount = 6;
const drawn = await measure(`images, ${imageCount} at 1920x1080`, async () => {
  for (let i = 0; i < imageCount; i++) await images.generateImage({ prompt: passages[i] ?? `Scene ${i}`, aspectRatio: "16:9", seed: "bench" });
  return imageCount;
});

const music = createOfflineMusicProvider();
const musicSeconds = 60;
const composed = await measure(`music, ${musicSeconds} s track`, async () => {
  const { taskId } = await music.startGeneration({ prompt: "upbeat energetic pop", trackCount: 1, durationSeconds: musicSeconds, seed: "bench" });
  return (await music.poll(taskId)).tracks[0]!.durationSeconds;
});

console.log("");
console.log(`offline script:  ${Math.round(words / script.cpu).toLocaleString("en")} words per CPU second (${words} words)`);
console.log(`offline speech:  ${(spoken.result / spoken.cpu).toFixed(1)} s of speech per CPU second`);
console.log(`offline images:  ${(drawn.result / drawn.wall).toFixed(2)} images per second (wall; sharp uses worker threads)`);
console.log(`offline music:   ${(composed.result / composed.cpu).toFixed(1)} s of music per CPU second`);
