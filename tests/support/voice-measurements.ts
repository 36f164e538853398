// Each offline voice's pace measured once per `npm test` run, not once per test file (decision 273). The app keeps
// a voice's measured pace in DATA_DIR/cache/speaking-rates.json: measured by the first script with that voice on a
// machine (about 7 CPU s for the neural voice, six readings), then read. Every integration file has a data folder of
// its own, so each file that wrote a script paid that first use again. Here a file's folder starts with what the
// files before it measured, and what it measured is kept for the files after it. The measurement itself is still
// made, by the first file that needs it, by the app's own code.
import fs from "node:fs";
import path from "node:path";

const FILE = "speaking-rates.json";

function readJson(file: string): Record<string, unknown> {
  try {
    const json = JSON.parse(fs.readFileSync(file, "utf8")) as unknown;
    return json && typeof json === "object" && !Array.isArray(json) ? (json as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** The run's shared folder (set by scripts/test.mjs), or undefined when vitest runs by hand. */
function sharedDir(): string | undefined {
  return process.env.TEST_VOICE_MEASUREMENTS_DIR || undefined;
}

/** Gives a new data folder the voice measurements this run has made so far. */
export function seedVoiceMeasurements(dataDir: string): void {
  const shared = sharedDir();
  if (!shared) return;
  const known = readJson(path.join(shared, FILE));
  if (Object.keys(known).length === 0) return;
  fs.mkdirSync(path.join(dataDir, "cache"), { recursive: true, mode: 0o700 });
  fs.writeFileSync(path.join(dataDir, "cache", FILE), JSON.stringify(known, null, 2), { mode: 0o600 });
}

/** Keeps the measurements a data folder made for the files that start after it. */
export function keepVoiceMeasurements(dataDir: string): void {
  const shared = sharedDir();
  if (!shared) return;
  const made = readJson(path.join(dataDir, "cache", FILE));
  if (Object.keys(made).length === 0) return;
  fs.mkdirSync(shared, { recursive: true });
  const file = path.join(shared, FILE);
  // two files ending at once: each writes the union whole and renames it in, so the file is never half written
  const temp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  fs.writeFileSync(temp, JSON.stringify({ ...readJson(file), ...made }, null, 2));
  fs.renameSync(temp, file);
}
