// npm run backup / restore with media in a bucket (STORAGE=s3, decision 150): the backup reads every file the
// database names from the bucket (a missing one is listed, not fatal), and the restore writes them into another,
// empty bucket byte for byte; a bucket that already holds media is refused.
import { spawnSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { createTestBucket, storeMediaInTestBucket } from "../support/object-store";

await storeMediaInTestBucket();
const target = await createTestBucket();
const { prisma } = await import("~/core/db.server");
const { mediaBackend, saveMedia } = await import("~/core/storage.server");
const { createS3Backend } = await import("~/core/storage/s3.server");
const { createBackup, restoreBackup } = await import("../../scripts/lib/backup-archive");
const { backendMediaStore, mediaStoreForBackup } = await import("../../scripts/lib/backup-media");
const { applyMigrations } = await import("../../scripts/lib/migrations.mjs");

const work = fs.mkdtempSync(path.join(os.tmpdir(), "reelsmith-backup-s3-"));
const adminUrl = process.env.TEST_PG_ADMIN_URL!;
const restoredDatabase = `restored_s3_${Date.now()}_${Math.random().toString(36).slice(2, 8)}`;
const restoredUrl = Object.assign(new URL(adminUrl), { pathname: `/${restoredDatabase}` }).toString();
const admin = async (sql: string) => {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
};

afterAll(async () => {
  await prisma.$disconnect();
  await admin(`DROP DATABASE IF EXISTS "${restoredDatabase}" WITH (FORCE)`).catch(() => {});
  fs.rmSync(work, { recursive: true, force: true });
});

describe("backup and restore with media in a bucket", () => {
  it("backs the bucket's files up and restores them into an empty bucket, byte for byte", { timeout: 120_000 }, async () => {
    const user = await prisma.user.create({ data: { email: "bucket-backup@example.com" } });
    const saved = [];
    for (const [kind, extension, bytes] of [["image", "png", 5000], ["voiceover", "wav", 20_000], ["video", "mp4", 2_000_000]] as const) {
      saved.push(await saveMedia({ userId: user.id, kind, mimeType: "application/octet-stream", extension, data: crypto.randomBytes(bytes) }));
    }
    // a row whose object is gone: listed as missing, the backup goes on
    const gone = await saveMedia({ userId: user.id, kind: "image", mimeType: "image/png", extension: "png", data: Buffer.from("soon gone") });
    await mediaBackend().delete(gone.storageKey);

    const source = await mediaStoreForBackup();
    expect(source.describe).toMatch(/^the bucket test-/);
    const archive = path.join(work, "bucket.tar.gz");
    const manifest = await createBackup({ databaseUrl: process.env.DATABASE_URL!, dataDir: process.env.DATA_DIR!, media: source, out: archive });
    expect(manifest.media.map((m) => m.storageKey).sort()).toEqual(saved.map((f) => f.storageKey).sort());
    expect(manifest.missingMedia).toEqual([gone.storageKey]);

    await admin(`CREATE DATABASE "${restoredDatabase}"`);
    const into = backendMediaStore(createS3Backend(target.config));
    const restore = () =>
      restoreBackup({ archive, databaseUrl: restoredUrl, dataDir: path.join(work, "fresh"), media: into, applyMigrations, knownMigrations: fs.readdirSync("prisma/migrations") });
    await restore();
    expect((await target.keys()).sort()).toEqual(saved.map((f) => f.storageKey).sort());
    const restored = createS3Backend(target.config);
    for (const f of saved) expect((await restored.read(f.storageKey)).equals(await mediaBackend().read(f.storageKey)), f.storageKey).toBe(true);

    // the target now holds media: a second restore is refused
    await expect(restore()).rejects.toThrow(/the bucket test-.* already holds media files/);
  });

  it("npm run backup with STORAGE=s3 reads the bucket and says so", { timeout: 60_000 }, async () => {
    const out = path.join(work, "cli.tar.gz");
    const r = spawnSync(process.execPath, ["--import", "tsx", "scripts/backup.ts", out], { encoding: "utf8", env: { ...process.env } });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/3 media files \(.* MB, from the bucket test-[^ ]+ at http:\/\/127\.0\.0\.1:\d+\)/);
    const listing = spawnSync("tar", ["-tzf", out], { encoding: "utf8" }).stdout.split("\n");
    expect(listing.filter((l) => l.startsWith("media/") && /\.(png|wav|mp4)$/.test(l))).toHaveLength(3);
  });
});
