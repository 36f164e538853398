// npm run backup / npm run restore (issue 31, decision 181): a project with its scenes, voiceovers, music and a
// rendered MP4 is backed up while another creator keeps saving media, then restored into an empty database and
// an empty data folder (a fresh machine): every row that existed before the backup comes back byte for byte,
// every media file with the same bytes, the secrets with it, and the writes made during the backup are whole
// (a media row always with its file). The real scripts run too: `npm run backup` against the running database.
import { execFile, spawnSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { prisma } from "~/core/db.server";
import { mediaFilePath, saveMedia, saveMediaFromPath, mediaUrl } from "~/core/storage.server";
import { createBackup, localMediaStore, restoreBackup, type BackupManifest } from "../../scripts/lib/backup-archive";
import { applyMigrations } from "../../scripts/lib/migrations.mjs";
import { seedRenderableProject, toneWav } from "../fixtures/render-project";

const run = promisify(execFile);
const work = fs.mkdtempSync(path.join(os.tmpdir(), "reelsmith-backup-"));
const restoredDatabase = `restored_${Date.now()}_${Math.random().toString(36).slice(2, 8)}`;
const adminUrl = process.env.TEST_PG_ADMIN_URL!;
const restoredUrl = () => {
  const url = new URL(adminUrl);
  url.pathname = `/${restoredDatabase}`;
  return url.toString();
};

async function withClient<T>(url: string, body: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await body(client);
  } finally {
    await client.end();
  }
}

/** Every row of every table (but the migrations' own), as PostgreSQL's JSON text, sorted. */
async function allRows(url: string): Promise<Map<string, string[]>> {
  return withClient(url, async (client) => {
    const tables = (await client.query<{ t: string }>("SELECT tablename AS t FROM pg_tables WHERE schemaname = current_schema() AND tablename <> '_prisma_migrations'")).rows;
    const rows = new Map<string, string[]>();
    for (const { t } of tables) rows.set(t, (await client.query<{ r: string }>(`SELECT row_to_json(x)::text AS r FROM "${t}" x`)).rows.map((r) => r.r).sort());
    return rows;
  });
}

const sha = (file: string) => crypto.createHash("sha256").update(fs.readFileSync(file)).digest("hex");

afterAll(async () => {
  await prisma.$disconnect();
  await withClient(adminUrl, (c) => c.query(`DROP DATABASE IF EXISTS "${restoredDatabase}" WITH (FORCE)`)).catch(() => {});
  fs.rmSync(work, { recursive: true, force: true });
});

describe("backup and restore", () => {
  it("round-trips a project with a rendered video while Reelsmith keeps writing: every row and every file", { timeout: 120_000 }, async () => {
    const dataDir = process.env.DATA_DIR!;
    // a project with scenes (images, voiceovers), music and a rendered MP4 (a real one, from ffmpeg)
    const user = await prisma.user.create({ data: { email: "backup@example.com", name: "Backed Up" } });
    const { projectId } = await seedRenderableProject({ userId: user.id, sceneSeconds: [1, 1], musicSeconds: 2 });
    const mp4 = path.join(work, "render.mp4");
    await run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc=size=256x144:rate=5:duration=1", "-pix_fmt", "yuv420p", "-y", mp4]);
    const mp4Sha = sha(mp4);
    const videoFile = await saveMediaFromPath({ userId: user.id, projectId, kind: "video", mimeType: "video/mp4", extension: "mp4", sourcePath: mp4, width: 256, height: 144, durationSeconds: 1 });
    await prisma.renderedVideo.create({ data: { projectId, status: "completed", videoUrl: mediaUrl(videoFile), mediaFileId: videoFile.id, width: 256, height: 144, durationSeconds: 1, completedAt: new Date() } });
    // the secrets the app generated (an encryption key among them) go with the data
    fs.writeFileSync(path.join(dataDir, "secrets.json"), JSON.stringify({ sessionSecret: "s".repeat(64), encryptionKey: "k".repeat(64) }), { mode: 0o600 });

    const before = await allRows(process.env.DATABASE_URL!);
    const filesBefore = await prisma.mediaFile.findMany();
    expect(filesBefore.length).toBe(6); // 2 images, 2 voiceovers, music, video

    // another creator keeps saving projects with a media file each while the backup runs
    const writer = await prisma.user.create({ data: { email: "busy@example.com" } });
    let writing = true;
    let written = 0;
    const writes = (async () => {
      while (writing) {
        await prisma.$transaction(async (tx) => {
          const p = await tx.project.create({ data: { userId: writer.id, title: `During the backup ${written}`, topic: "t", resolution: "landscape", durationSeconds: 60 } });
          await tx.project.update({ where: { id: p.id }, data: { topic: "t2" } });
        });
        await saveMedia({ userId: writer.id, kind: "voiceover", mimeType: "audio/wav", extension: "wav", data: toneWav(0.2, 440) });
        written++;
      }
    })();
    const archive = path.join(work, "reelsmith.tar.gz");
    let manifest: BackupManifest;
    try {
      manifest = await createBackup({ databaseUrl: process.env.DATABASE_URL!, dataDir, media: localMediaStore(path.join(dataDir, "media")), out: archive });
    } finally {
      writing = false;
      await writes;
    }
    expect(written).toBeGreaterThan(0);
    expect(fs.statSync(archive).mode & 0o777).toBe(0o600);
    expect(manifest.missingMedia).toEqual([]);
    expect(fs.readdirSync(work).filter((f) => f.includes(".partial"))).toEqual([]);
    expect(fs.readdirSync(dataDir).filter((f) => f.startsWith(".backup-"))).toEqual([]); // staging removed

    // a fresh machine: an empty database, an empty data folder
    await withClient(adminUrl, (c) => c.query(`CREATE DATABASE "${restoredDatabase}"`));
    const freshDir = path.join(work, "fresh-data");
    const restoredManifest = await restoreBackup({
      archive,
      databaseUrl: restoredUrl(),
      dataDir: freshDir,
      media: localMediaStore(path.join(freshDir, "media")),
      applyMigrations,
      knownMigrations: fs.readdirSync("prisma/migrations"),
    });
    expect(restoredManifest.createdAt).toBe(manifest.createdAt);

    // every row that existed before the backup is back, exactly
    const after = await allRows(restoredUrl());
    for (const [table, rows] of before) {
      const restored = new Set(after.get(table));
      for (const row of rows) expect(restored.has(row), `${table} row missing or changed after restore: ${row}`).toBe(true);
    }
    // the backup is one snapshot: the writer's media rows each have their file, and its projects are whole
    const restoredFiles = await withClient(restoredUrl(), async (c) => (await c.query<{ storageKey: string; bytes: number }>(`SELECT "storageKey", bytes FROM "MediaFile"`)).rows);
    expect(restoredFiles.length).toBe(manifest.media.length);
    for (const f of restoredFiles) expect(fs.statSync(path.join(freshDir, "media", f.storageKey)).size).toBe(Number(f.bytes));
    const halfDone = await withClient(restoredUrl(), async (c) => (await c.query(`SELECT count(*)::int AS n FROM "Project" WHERE topic = 't'`)).rows[0].n);
    expect(halfDone).toBe(0);
    // every file of the project: same bytes, private modes; the video is the very MP4
    for (const f of filesBefore) {
      const restored = path.join(freshDir, "media", f.storageKey);
      expect(sha(restored)).toBe(sha(mediaFilePath(f)));
      expect(fs.statSync(restored).mode & 0o777).toBe(0o600);
    }
    expect(sha(path.join(freshDir, "media", videoFile.storageKey))).toBe(mp4Sha);
    expect(fs.readFileSync(path.join(freshDir, "secrets.json"), "utf8")).toBe(fs.readFileSync(path.join(dataDir, "secrets.json"), "utf8"));

    // a second restore into the now-used database and folder is refused, and changes nothing
    await expect(
      restoreBackup({ archive, databaseUrl: restoredUrl(), dataDir: freshDir, media: localMediaStore(path.join(freshDir, "media")), applyMigrations, knownMigrations: fs.readdirSync("prisma/migrations") }),
    ).rejects.toThrow(/already holds media files/);
  });

  it("npm run backup writes the archive against the running database and says what is in it", { timeout: 60_000 }, async () => {
    const out = path.join(work, "cli.tar.gz");
    const r = spawnSync(process.execPath, ["--import", "tsx", "scripts/backup.ts", out], { encoding: "utf8", env: { ...process.env } });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/\[backup\] .*cli\.tar\.gz: \d+ rows in \d+ tables, \d+ media files/);
    const listing = spawnSync("tar", ["-tzf", out], { encoding: "utf8" }).stdout.split("\n");
    expect(listing).toContain("manifest.json");
    expect(listing.some((l) => l.startsWith("media/") && l.endsWith(".mp4"))).toBe(true);
  });
});
