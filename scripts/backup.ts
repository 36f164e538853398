// npm run backup [-- <archive.tar.gz>]: the database (one consistent snapshot), every media file it names and the
// generated secrets, in one archive, while Reelsmith runs (decision 181). Default: .data/backups/reelsmith-<time>.tar.gz
import fs from "node:fs";
import path from "node:path";
import { ensureSupportedNode } from "./lib/node-runtime.mjs";

await ensureSupportedNode();
const { openDatabase } = await import("./lib/database.mjs");
const { DATA_DIR, ROOT } = await import("./lib/paths.mjs");
const { createBackup } = await import("./lib/backup-archive");
const { mediaStoreForBackup } = await import("./lib/backup-media");

const arg = process.argv.slice(2).find((a) => !a.startsWith("-"));
const out = path.resolve(arg ?? path.join(DATA_DIR, "backups", `reelsmith-${new Date().toISOString().replace(/[:.]/g, "-")}.tar.gz`));
const started = performance.now();
const database = await openDatabase();
let media: Awaited<ReturnType<typeof mediaStoreForBackup>> | undefined;
try {
  media = await mediaStoreForBackup();
  const { version } = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as { version: string };
  const manifest = await createBackup({ databaseUrl: database.url, dataDir: DATA_DIR, media, out, reelsmithVersion: version, log: (l) => console.log(`[backup] ${l}`) });
  const rows = manifest.tables.reduce((sum, t) => sum + t.rows, 0);
  const bytes = manifest.media.reduce((sum, f) => sum + f.bytes, 0);
  console.log(
    `[backup] ${path.relative(process.cwd(), out) || out}: ${rows} rows in ${manifest.tables.length} tables, ${manifest.media.length} media files ` +
      `(${(bytes / 1e6).toFixed(1)} MB, from ${media.describe})${manifest.secrets ? ", secrets.json" : ""}; ` +
      `${(fs.statSync(out).size / 1e6).toFixed(1)} MB in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  if (!manifest.secrets) console.log("[backup] no .data/secrets.json: keep SESSION_SECRET and ENCRYPTION_KEY yourself; the restore needs the same ENCRYPTION_KEY");
} catch (e) {
  console.error(`[backup] failed: ${e instanceof Error ? e.message : String(e)}`);
  process.exitCode = 1;
} finally {
  await media?.close?.();
  await database.stop();
}
process.exit();
