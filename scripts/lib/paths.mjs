// Where things live on disk. Only node built-ins here: this runs before dependencies are installed.
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
/** Everything the running app writes: database, Temporal's SQLite file, media, generated secrets. */
export const DATA_DIR = path.resolve(ROOT, process.env.DATA_DIR ?? ".data");
/** Per-machine cache outside the clone, so a fresh clone (CI's) finds the Temporal CLI already built. */
export const MACHINE_CACHE = path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), ".cache"), "reelsmith");
export const PROJECT_BIN = path.join(ROOT, ".bin");
