// The composition's bundle, kept between worker processes and runs on one machine (decision 280). Every worker
// bundled the composition at its start (webpack, 4-22 CPU s), and a test run starts dozens of workers (each
// integration file its own, the drills, the fleet, the browser lane's app): 31 bundles in the first 25 minutes of
// one run. A bundle is now named by a hash of every file it can be built from, built once into a folder of its own
// in the temporary folder and used by every worker whose sources hash the same, that process or a later one.
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { isProcessRunning } from "~/lib/process-running.server";

export const CACHED_BUNDLE_PREFIX = "reelsmith-remotion-cache-";
/** What a bundle can be built from: the composition, the app code it imports, the static files and the packages. */
const SOURCE_FOLDERS = ["remotion", "app", "public"];
const SOURCE_FILES = ["package-lock.json", "workflows/engine/bundle-composition.mjs"];
// tests and stories are never imported by the composition: a new test does not rebuild the bundle
const NOT_A_SOURCE = /\.(test|spec)\.[cm]?[jt]sx?$/;

function listFiles(dir: string, out: string[]) {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== "node_modules" && !entry.name.startsWith(".")) listFiles(full, out);
    } else if (entry.isFile() && !NOT_A_SOURCE.test(entry.name)) out.push(full);
  }
}

/**
 * A hash of every file the bundle can be built from under `root` (their paths from the root and their bytes): the
 * same sources give the same hash in any checkout; any change to one of them, another. A few milliseconds.
 */
export function compositionSourceHash(root: string): string {
  const files: string[] = [];
  for (const folder of SOURCE_FOLDERS) listFiles(path.join(root, folder), files);
  for (const file of SOURCE_FILES) if (fs.existsSync(path.join(root, file))) files.push(path.join(root, file));
  const hash = createHash("sha256");
  for (const file of files.map((f) => path.relative(root, f).split(path.sep).join("/")).sort()) {
    hash.update(`${file}\0`);
    hash.update(fs.readFileSync(path.join(root, file)));
    hash.update("\0");
  }
  return hash.digest("hex").slice(0, 24);
}

/** The processes that said they serve a cached bundle and are still alive. */
function liveUsers(dir: string): number[] {
  try {
    return fs
      .readdirSync(path.join(dir, ".users"))
      .map(Number)
      .filter((pid) => Number.isInteger(pid) && isProcessRunning(pid));
  } catch {
    return [];
  }
}

/** Marks `dir` as served by this process until it exits: no other worker removes it meanwhile. */
function markInUse(dir: string): string {
  const mark = path.join(dir, ".users", String(process.pid));
  fs.mkdirSync(path.dirname(mark), { recursive: true });
  fs.writeFileSync(mark, "");
  process.once("exit", () => fs.rmSync(mark, { force: true }));
  return dir;
}

/**
 * Bundles of other sources no live process serves are removed (a checkout moved on, an older deploy stopped), and so
 * are half-built folders whose builder died. The current sources' bundle stays for the next worker.
 */
function removeUnusedBundles(tmp: string, keep: string) {
  for (const name of fs.readdirSync(tmp)) {
    if (!name.startsWith(CACHED_BUNDLE_PREFIX)) continue;
    const full = path.join(tmp, name);
    const building = /\.building-(\d+)$/.exec(name);
    if (building ? !isProcessRunning(Number(building[1])) : full !== keep && liveUsers(full).length === 0) {
      fs.rmSync(full, { recursive: true, force: true });
    }
  }
}

/**
 * The bundle for sources hashing `hash`: the one already in `tmp`, or one `build` writes into a folder of its own
 * (renamed into place when complete, so a reader never sees half a bundle; when two processes build at once the
 * first rename wins and the other's copy is dropped). Resolves with the bundle's folder, marked as in use.
 */
export async function cachedBundle(hash: string, build: (outDir: string) => Promise<unknown>, tmp = os.tmpdir()): Promise<string> {
  const dir = path.join(tmp, `${CACHED_BUNDLE_PREFIX}${hash}`);
  removeUnusedBundles(tmp, dir);
  if (fs.existsSync(path.join(dir, "index.html"))) {
    markInUse(dir);
    // removed by another checkout's worker between the look and the mark (it saw no user yet): built again below
    if (fs.existsSync(path.join(dir, "index.html"))) return dir;
  }
  const building = `${dir}.building-${process.pid}`;
  fs.rmSync(building, { recursive: true, force: true });
  fs.mkdirSync(building, { recursive: true });
  try {
    await build(building);
    fs.renameSync(building, dir);
  } catch (e) {
    fs.rmSync(building, { recursive: true, force: true });
    const code = (e as NodeJS.ErrnoException).code;
    // another process renamed its copy into place first: use that one
    if ((code === "ENOTEMPTY" || code === "EEXIST") && fs.existsSync(path.join(dir, "index.html"))) return markInUse(dir);
    throw e;
  }
  return markInUse(dir);
}
