// Backup and restore (issue 31; decision 181): one .tar.gz holding the database, every media file the database
// names, and the generated secrets (secrets.json: without its encryption key the saved API keys and YouTube
// tokens cannot be read).
//
// The database is read inside ONE read-only REPEATABLE READ transaction: every table and every sequence is read
// from the same snapshot, and so is the list of media files, so the archive is consistent while Reelsmith keeps
// running. Rows are written as PostgreSQL's own JSON text of each row (row_to_json, never parsed in JS: bigints,
// timestamps and bytes stay exact) and read back with json_populate_recordset into the same columns. The schema
// is not in the archive: the restore applies the migrations (the archive names the ones its database had, and
// the restoring Reelsmith must know them all), then loads the rows, so an archive restores into the same or a
// newer Reelsmith. Media files are hard-linked into the staging folder while the snapshot is open (a file
// deleted meanwhile keeps its bytes), each with its size and SHA-256, which the restore checks.
import { spawn } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import readline from "node:readline";
import { pipeline } from "node:stream/promises";
import pg from "pg";

export const ARCHIVE_FORMAT = "reelsmith-backup";
export const ARCHIVE_VERSION = 1;
const MIGRATIONS_TABLE = "_prisma_migrations";
const BATCH = 500;

export type BackupManifest = {
  format: typeof ARCHIVE_FORMAT;
  version: number;
  createdAt: string;
  reelsmithVersion: string;
  postgresVersion: string;
  migrations: string[];
  tables: { name: string; columns: string[]; rows: number; file: string }[];
  sequences: { name: string; lastValue: string; isCalled: boolean }[];
  media: { storageKey: string; bytes: number; sha256: string }[];
  missingMedia: string[];
  secrets: boolean;
};

/** Where media files live. The local folder by default; a bucket backend gives the same three calls. */
export type MediaStore = {
  describe: string;
  /** Copies (or links) the file into `target`; throws ENOENT when it is missing. */
  fetchTo(storageKey: string, target: string): Promise<void>;
  /** Stores the file at `source` under `storageKey`; a reader never sees half of it. */
  putFrom(storageKey: string, source: string): Promise<void>;
  /** Whether any media file is stored at all (a restore only goes into an empty store). */
  isEmpty(): Promise<boolean>;
  /** Stops what opening the store started (the development object store), if anything. */
  close?: () => Promise<void>;
};

function safeKey(storageKey: string): string {
  const normal = path.posix.normalize(storageKey);
  if (normal.startsWith("..") || path.posix.isAbsolute(normal) || normal.includes("\0")) throw new Error(`refusing a media key outside the media folder: ${storageKey}`);
  return normal;
}

export function localMediaStore(root: string): MediaStore {
  return {
    describe: `the local folder ${root}`,
    async fetchTo(storageKey, target) {
      const source = path.join(root, safeKey(storageKey));
      try {
        await fsp.link(source, target);
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        if (code === "ENOENT") throw e;
        await fsp.copyFile(source, target); // another file system, or links not allowed
      }
    },
    async putFrom(storageKey, source) {
      const target = path.join(root, safeKey(storageKey));
      await fsp.mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
      const partial = `${target}.partial-restore`;
      await fsp.copyFile(source, partial);
      await fsp.chmod(partial, 0o600);
      await fsp.rename(partial, target);
    },
    async isEmpty() {
      const walk = async (dir: string): Promise<boolean> => {
        let entries: fs.Dirent[];
        try {
          entries = await fsp.readdir(dir, { withFileTypes: true });
        } catch (e) {
          if ((e as NodeJS.ErrnoException).code === "ENOENT") return true;
          throw e;
        }
        for (const entry of entries) {
          if (entry.isFile()) return false;
          if (entry.isDirectory() && !(await walk(path.join(dir, entry.name)))) return false;
        }
        return true;
      };
      return walk(root);
    },
  };
}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

async function sha256(file: string): Promise<string> {
  const hash = crypto.createHash("sha256");
  await pipeline(fs.createReadStream(file), hash);
  return hash.digest("hex");
}

function tar(args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn("tar", args, { stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", reject);
    child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`tar ${args[0]} failed (${code}): ${stderr.trim()}`))));
  });
}

/** Tables in an order that satisfies their foreign keys (a referenced table before the tables that refer to it). */
async function tablesInDependencyOrder(client: pg.ClientBase): Promise<string[]> {
  const tables = (await client.query<{ name: string }>("SELECT tablename AS name FROM pg_tables WHERE schemaname = current_schema() ORDER BY tablename")).rows.map((r) => r.name);
  const edges = (
    await client.query<{ child: string; parent: string }>(
      `SELECT c.relname AS child, p.relname AS parent FROM pg_constraint k
         JOIN pg_class c ON c.oid = k.conrelid JOIN pg_class p ON p.oid = k.confrelid
         JOIN pg_namespace n ON n.oid = c.relnamespace
       WHERE k.contype = 'f' AND n.nspname = current_schema()`,
    )
  ).rows;
  const ordered: string[] = [];
  const visiting = new Set<string>();
  const visit = (table: string) => {
    if (ordered.includes(table) || visiting.has(table)) return; // a cycle: session_replication_role covers it
    visiting.add(table);
    for (const e of edges) if (e.child === table && e.parent !== table) visit(e.parent);
    visiting.delete(table);
    ordered.push(table);
  };
  tables.forEach(visit);
  return ordered;
}

export type BackupOptions = { databaseUrl: string; dataDir: string; media: MediaStore; out: string; reelsmithVersion?: string; log?: (line: string) => void };

/** Writes the archive to `out` (through a temporary name) and returns its manifest. */
export async function createBackup(options: BackupOptions): Promise<BackupManifest> {
  const log = options.log ?? (() => {});
  const staging = await fsp.mkdtemp(path.join(options.dataDir, ".backup-"));
  const client = new pg.Client({ connectionString: options.databaseUrl });
  await client.connect();
  try {
    await fsp.mkdir(path.join(staging, "database"));
    await fsp.mkdir(path.join(staging, "media"), { recursive: true });
    // one snapshot for everything below; read-only, so it never blocks Reelsmith's writes
    await client.query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
    const postgresVersion = (await client.query<{ v: string }>("SHOW server_version")).rows[0]!.v;
    const migrations = (
      await client.query<{ name: string }>(`SELECT migration_name AS name FROM ${MIGRATIONS_TABLE} WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL ORDER BY migration_name`)
    ).rows.map((r) => r.name);
    const manifest: BackupManifest = {
      format: ARCHIVE_FORMAT,
      version: ARCHIVE_VERSION,
      createdAt: new Date().toISOString(),
      reelsmithVersion: options.reelsmithVersion ?? "unknown",
      postgresVersion,
      migrations,
      tables: [],
      sequences: [],
      media: [],
      missingMedia: [],
      secrets: false,
    };
    for (const table of await tablesInDependencyOrder(client)) {
      if (table === MIGRATIONS_TABLE) continue;
      const columns = (
        await client.query<{ name: string }>(
          "SELECT attname AS name FROM pg_attribute WHERE attrelid = $1::regclass AND attnum > 0 AND NOT attisdropped AND attgenerated = '' ORDER BY attnum",
          [quote(table)],
        )
      ).rows.map((r) => r.name);
      const file = `database/${manifest.tables.length.toString().padStart(3, "0")}-${table.replace(/[^A-Za-z0-9_]/g, "_")}.jsonl`;
      const out = fs.createWriteStream(path.join(staging, file));
      let rows = 0;
      await client.query(`DECLARE dump NO SCROLL CURSOR FOR SELECT row_to_json(t)::text AS r FROM ${quote(table)} t`);
      for (;;) {
        const batch = await client.query<{ r: string }>(`FETCH ${BATCH} FROM dump`);
        if (!batch.rows.length) break;
        rows += batch.rows.length;
        if (!out.write(batch.rows.map((r) => r.r).join("\n") + "\n")) await new Promise<void>((r) => out.once("drain", () => r()));
      }
      await client.query("CLOSE dump");
      await new Promise<void>((resolve, reject) => {
        out.once("error", reject);
        out.end(() => resolve());
      });
      manifest.tables.push({ name: table, columns, rows, file });
    }
    const sequences = (await client.query<{ name: string }>("SELECT sequencename AS name FROM pg_sequences WHERE schemaname = current_schema() ORDER BY sequencename")).rows;
    for (const { name } of sequences) {
      const { rows } = await client.query<{ last_value: string; is_called: boolean }>(`SELECT last_value::text, is_called FROM ${quote(name)}`);
      manifest.sequences.push({ name, lastValue: rows[0]!.last_value, isCalled: rows[0]!.is_called });
    }
    // the media files the snapshot's rows name, linked while the snapshot is open
    const hasMediaTable = manifest.tables.some((t) => t.name === "MediaFile");
    const keys = hasMediaTable ? (await client.query<{ storageKey: string }>(`SELECT "storageKey" FROM "MediaFile" ORDER BY "storageKey"`)).rows.map((r) => r.storageKey) : [];
    for (const storageKey of keys) {
      const target = path.join(staging, "media", safeKey(storageKey));
      await fsp.mkdir(path.dirname(target), { recursive: true });
      try {
        await options.media.fetchTo(storageKey, target);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw e;
        manifest.missingMedia.push(storageKey);
      }
    }
    await client.query("COMMIT");
    for (const storageKey of keys) {
      if (manifest.missingMedia.includes(storageKey)) continue;
      const file = path.join(staging, "media", safeKey(storageKey));
      manifest.media.push({ storageKey, bytes: (await fsp.stat(file)).size, sha256: await sha256(file) });
    }
    if (manifest.missingMedia.length) log(`${manifest.missingMedia.length} media file(s) named in the database were already missing: ${manifest.missingMedia.slice(0, 5).join(", ")}`);
    const secrets = path.join(options.dataDir, "secrets.json");
    if (fs.existsSync(secrets)) {
      await fsp.copyFile(secrets, path.join(staging, "secrets.json"));
      manifest.secrets = true;
    }
    await fsp.writeFile(path.join(staging, "manifest.json"), JSON.stringify(manifest, null, 2));
    await fsp.mkdir(path.dirname(path.resolve(options.out)), { recursive: true });
    const partial = `${options.out}.partial`;
    await tar(["-czf", partial, "-C", staging, "manifest.json", "database", "media", ...(manifest.secrets ? ["secrets.json"] : [])]);
    await fsp.chmod(partial, 0o600); // it holds the secrets and everyone's data
    await fsp.rename(partial, options.out);
    return manifest;
  } catch (e) {
    await client.query("ROLLBACK").catch(() => {});
    await fsp.rm(`${options.out}.partial`, { force: true });
    throw e;
  } finally {
    await client.end().catch(() => {});
    await fsp.rm(staging, { recursive: true, force: true });
  }
}

export type RestoreOptions = {
  archive: string;
  databaseUrl: string;
  dataDir: string;
  media: MediaStore;
  /** Applies the restoring Reelsmith's migrations to the (empty) database. */
  applyMigrations: (url: string) => Promise<unknown>;
  /** The migrations the restoring Reelsmith has (folder names). */
  knownMigrations: string[];
  log?: (line: string) => void;
};

async function readManifest(dir: string): Promise<BackupManifest> {
  let manifest: BackupManifest;
  try {
    manifest = JSON.parse(await fsp.readFile(path.join(dir, "manifest.json"), "utf8")) as BackupManifest;
  } catch {
    throw new Error("this is not a Reelsmith backup (no manifest.json in it)");
  }
  if (manifest.format !== ARCHIVE_FORMAT) throw new Error("this is not a Reelsmith backup");
  if (manifest.version > ARCHIVE_VERSION) throw new Error(`this backup has format ${manifest.version}; this Reelsmith reads up to ${ARCHIVE_VERSION}: update Reelsmith first`);
  return manifest;
}

/** Restores the archive into an empty database and an empty media store. Returns the manifest. */
export async function restoreBackup(options: RestoreOptions): Promise<BackupManifest> {
  const log = options.log ?? (() => {});
  const work = await fsp.mkdtemp(path.join(os.tmpdir(), "reelsmith-restore-"));
  try {
    await tar(["-xzf", options.archive, "-C", work, "--no-same-owner"]);
    const manifest = await readManifest(work);
    const unknown = manifest.migrations.filter((m) => !options.knownMigrations.includes(m));
    if (unknown.length) throw new Error(`this backup comes from a newer Reelsmith (migrations this one lacks: ${unknown.join(", ")}): update Reelsmith, then restore`);
    // every media file is checked before anything is written
    for (const file of manifest.media) {
      const local = path.join(work, "media", safeKey(file.storageKey));
      const stat = await fsp.stat(local).catch(() => null);
      if (!stat || stat.size !== file.bytes || (await sha256(local)) !== file.sha256) throw new Error(`the backup is damaged: media file ${file.storageKey} does not match its checksum`);
    }
    if (!(await options.media.isEmpty())) throw new Error(`${options.media.describe} already holds media files: restore into a fresh Reelsmith (an empty data folder)`);

    await options.applyMigrations(options.databaseUrl);
    const client = new pg.Client({ connectionString: options.databaseUrl });
    await client.connect();
    try {
      for (const table of manifest.tables) {
        const exists = (await client.query("SELECT to_regclass($1) AS t", [quote(table.name)])).rows[0].t;
        if (!exists) throw new Error(`this Reelsmith has no table ${table.name}`);
        const { rows } = await client.query(`SELECT EXISTS (SELECT 1 FROM ${quote(table.name)}) AS used`);
        if (rows[0].used) throw new Error(`the database already holds data (table ${table.name} is not empty): restore into a fresh Reelsmith (an empty database)`);
      }
      await client.query("BEGIN");
      // foreign keys are satisfied by the load order; a cycle or a self-reference is covered by this (superuser only)
      await client.query("SAVEPOINT role");
      await client.query("SET LOCAL session_replication_role = replica").catch(() => client.query("ROLLBACK TO SAVEPOINT role"));
      for (const table of manifest.tables) {
        const columns = table.columns.map(quote).join(", ");
        const insert = `INSERT INTO ${quote(table.name)} (${columns}) SELECT ${columns} FROM json_populate_recordset(null::${quote(table.name)}, $1::json)`;
        const lines = readline.createInterface({ input: fs.createReadStream(path.join(work, table.file)), crlfDelay: Infinity });
        let batch: string[] = [];
        let loaded = 0;
        for await (const line of lines) {
          if (!line) continue;
          batch.push(line);
          if (batch.length >= BATCH) {
            await client.query(insert, [`[${batch.join(",")}]`]);
            loaded += batch.length;
            batch = [];
          }
        }
        if (batch.length) await client.query(insert, [`[${batch.join(",")}]`]);
        loaded += batch.length;
        if (loaded !== table.rows) throw new Error(`the backup is damaged: ${table.name} has ${loaded} rows, the manifest says ${table.rows}`);
      }
      for (const s of manifest.sequences) {
        await client.query("SELECT setval($1::regclass, $2::bigint, $3)", [quote(s.name), s.lastValue, s.isCalled]).catch((e: Error) => log(`sequence ${s.name} not restored: ${e.message}`));
      }
      await client.query("COMMIT");
    } catch (e) {
      await client.query("ROLLBACK").catch(() => {});
      throw e;
    } finally {
      await client.end().catch(() => {});
    }

    for (const file of manifest.media) await options.media.putFrom(file.storageKey, path.join(work, "media", safeKey(file.storageKey)));
    if (manifest.secrets) {
      const target = path.join(options.dataDir, "secrets.json");
      await fsp.mkdir(options.dataDir, { recursive: true });
      if (fs.existsSync(target)) {
        const kept = `${target}.before-restore-${Date.now()}`;
        await fsp.rename(target, kept);
        log(`the secrets this machine had are kept in ${kept}`);
      }
      await fsp.copyFile(path.join(work, "secrets.json"), target);
      await fsp.chmod(target, 0o600);
    }
    return manifest;
  } finally {
    await fsp.rm(work, { recursive: true, force: true });
  }
}
