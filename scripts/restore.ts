// npm run restore <archive.tar.gz>: brings a backup (npm run backup) back into a fresh Reelsmith: an empty database
// (the embedded one under .data, created now, or DATABASE_URL) and an empty media store. Stop Reelsmith first.
import fs from "node:fs";
import path from "node:path";
import { ensureSupportedNode } from "./lib/node-runtime.mjs";

await ensureSupportedNode();
const archive = process.argv.slice(2).find((a) => !a.startsWith("-"));
if (!archive || !fs.existsSync(archive)) {
  console.error(archive ? `[restore] no such file: ${archive}` : "usage: npm run restore <archive.tar.gz>");
  process.exit(2);
}
const { openDatabase } = await import("./lib/database.mjs");
const { applyMigrations } = await import("./lib/migrations.mjs");
const { DATA_DIR, ROOT } = await import("./lib/paths.mjs");
const { restoreBackup } = await import("./lib/backup-archive");
const { mediaStoreForBackup } = await import("./lib/backup-media");

const started = performance.now();
const database = await openDatabase();
let media: Awaited<ReturnType<typeof mediaStoreForBackup>> | undefined;
try {
  media = await mediaStoreForBackup();
  const knownMigrations = fs.readdirSync(path.join(ROOT, "prisma/migrations")).filter((d) => fs.existsSync(path.join(ROOT, "prisma/migrations", d, "migration.sql")));
  const manifest = await restoreBackup({
    archive: path.resolve(archive),
    databaseUrl: database.url,
    dataDir: DATA_DIR,
    media,
    applyMigrations,
    knownMigrations,
    log: (l) => console.log(`[restore] ${l}`),
  });
  const rows = manifest.tables.reduce((sum, t) => sum + t.rows, 0);
  console.log(
    `[restore] restored the backup of ${manifest.createdAt}: ${rows} rows in ${manifest.tables.length} tables, ${manifest.media.length} media files into ${media.describe}` +
      `${manifest.secrets ? ", secrets.json" : ""} in ${((performance.now() - started) / 1000).toFixed(1)} s. Start Reelsmith with: npm start`,
  );
} catch (e) {
  console.error(`[restore] failed: ${e instanceof Error ? e.message : String(e)}`);
  process.exitCode = 1;
} finally {
  await media?.close?.();
  await database.stop();
}
process.exit();
