// Offline machine translation with Apertium (issue 51, decision 230): Debian's apertium and its language-pair
// packages (apertium-en-es, apertium-en-ca, apertium-en-gl, apertium-eo-en), installed by `npm start` and `npm test`
// like the other system packages (scripts/lib/system-packages.mjs). Rule-based, so its output is labelled as machine
// translation and the creator is offered a proofreading step before the voiceovers are made.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pLimit from "p-limit";

export const APERTIUM_NAME = "Apertium (machine translation)";
const APERTIUM_BIN = process.env.APERTIUM_BIN ?? "/usr/bin/apertium";
const MODES_DIR = process.env.APERTIUM_MODES_DIR ?? "/usr/share/apertium/modes";
/** A scene's translation never takes longer than this. */
const TIMEOUT_MS = 60_000;

/**
 * The pairs Debian's packages give, source>target -> the mode's name in /usr/share/apertium/modes (Debian 12 names
 * the English-Spanish and English-Catalan modes with three-letter codes).
 */
export const APERTIUM_PAIRS: Record<string, string> = {
  "en>es": "eng-spa",
  "es>en": "spa-eng",
  "en>ca": "eng-cat",
  "ca>en": "cat-eng",
  "en>gl": "en-gl",
  "gl>en": "gl-en",
  "en>eo": "en-eo",
  "eo>en": "eo-en",
};

const base = (language: string) => language.toLowerCase().split("-")[0]!;

/** The installed Apertium mode for a pair, or null (the package is missing or Apertium has no such pair). */
export function apertiumMode(from: string, to: string): string | null {
  const mode = APERTIUM_PAIRS[`${base(from)}>${base(to)}`];
  if (!mode || !fs.existsSync(APERTIUM_BIN) || !fs.existsSync(`${MODES_DIR}/${mode}.mode`)) return null;
  return mode;
}

/** The target languages Apertium can translate `from` into on this server. */
export function apertiumTargets(from: string): string[] {
  return Object.keys(APERTIUM_PAIRS)
    .filter((pair) => pair.startsWith(`${base(from)}>`))
    .map((pair) => pair.split(">")[1]!)
    .filter((to) => apertiumMode(from, to));
}

async function runApertium(mode: string, text: string): Promise<string> {
  // the text goes in as a file: Apertium's scripts read /dev/stdin, which a Node pipe (a socket) cannot be opened as
  const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), "reelsmith-apertium-"));
  const input = path.join(dir, "in.txt");
  await fs.promises.writeFile(input, text, "utf8");
  try {
    return await new Promise((resolve, reject) => {
      // -u: unknown words as they are, without Apertium's '*' marks (they would be spoken and captioned)
      const child = spawn(APERTIUM_BIN, ["-u", "-f", "txt", mode, input], { stdio: ["ignore", "pipe", "pipe"] });
      const out: Buffer[] = [];
      const err: Buffer[] = [];
      const timer = setTimeout(() => child.kill("SIGKILL"), TIMEOUT_MS);
      child.stdout.on("data", (d: Buffer) => out.push(d));
      child.stderr.on("data", (d: Buffer) => err.push(d));
      child.on("error", (e) => {
        clearTimeout(timer);
        reject(e);
      });
      child.on("close", (code, signal) => {
        clearTimeout(timer);
        const stderr = Buffer.concat(err).toString("utf8").trim();
        // Apertium's scripts can exit 0 after a stage failed: an empty answer with a complaint is a failure too
        if (code === 0 && !(out.length === 0 && stderr)) resolve(Buffer.concat(out).toString("utf8"));
        else reject(new Error(`Apertium ${mode} failed (${signal ?? `exit ${code}`}): ${stderr.slice(0, 300)}`));
      });
    });
  } finally {
    await fs.promises.rm(dir, { recursive: true, force: true });
  }
}

/** Apertium's leftovers cleaned: '#' marks words it could not inflect, '@' untranslatable ones with -u off. */
const tidy = (text: string) => text.replace(/[#@*](?=\p{L})/gu, "").replace(/[ \t]+/g, " ").trim();

/**
 * Translates several texts in one Apertium run (its start-up is most of the time): one text a paragraph, split
 * back at the blank lines; texts are translated one by one when the paragraph count does not come back the same.
 */
export async function apertiumTranslate(texts: readonly string[], from: string, to: string): Promise<string[]> {
  const mode = apertiumMode(from, to);
  if (!mode) throw new Error(`Apertium cannot translate ${from} to ${to} on this server (install apertium and the pair's package).`);
  const flat = texts.map((t) => t.replace(/\s*\n\s*/g, " ").trim());
  // empty texts (a Short's silent end card) stay empty and are not sent
  const filled = flat.filter(Boolean);
  if (!filled.length) return flat;
  const joined = await runApertium(mode, filled.join("\n\n"));
  let parts = joined.split(/\n\s*\n/).map(tidy);
  if (parts.length !== filled.length) {
    // one run per text, two at a time: a 240-scene version must not start 250 processes at once inside one request
    const limit = pLimit(2);
    parts = await Promise.all(filled.map((t) => limit(async () => tidy(await runApertium(mode, t)))));
  }
  let next = 0;
  return flat.map((t) => (t ? parts[next++]! : ""));
}
