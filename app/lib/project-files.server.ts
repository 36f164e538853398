// Files of the Reelsmith checkout (or image) that code reads at run time: the built web app, the video composition's
// sources, the helper scripts run in a process of their own. Found from the project's root, not from the reading
// module's own place: the same module runs from its source (tsx) and bundled into dist/server.js or dist/worker.js
// (decision 204), where a path relative to import.meta.url would point into dist/.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The nearest folder above `from` holding Reelsmith's package.json. */
function findProjectRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const manifest = path.join(dir, "package.json");
    if (fs.existsSync(manifest) && (JSON.parse(fs.readFileSync(manifest, "utf8")) as { name?: string }).name === "reelsmith") return dir;
    if (dir === path.dirname(dir)) throw new Error(`no Reelsmith package.json above ${from}`);
  }
}

export const PROJECT_ROOT = findProjectRoot(path.dirname(fileURLToPath(import.meta.url)));

/** A file of the project, by its path from the project's root ("remotion/index.ts"). */
export const projectFile = (relative: string) => path.join(PROJECT_ROOT, relative);
