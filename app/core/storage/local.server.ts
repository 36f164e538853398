// The local-folder backend: objects are files under one root (DATA_DIR/media), private to the server's user
// (0600 files in 0700 folders), written as "<file>.partial" and renamed so a reader never sees half a file.
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import {
  assertValidKey,
  assertValidPrefix,
  StorageNotFoundError,
  type ByteRange,
  type ObjectInfo,
  type PutBody,
  type StorageBackend,
} from "./backend.server";

const isMissing = (e: unknown) => (e as NodeJS.ErrnoException).code === "ENOENT";

export function createLocalBackend(root: string): StorageBackend {
  const resolvedRoot = path.resolve(root);

  const pathFor = (key: string): string => {
    assertValidKey(key);
    const absolute = path.resolve(resolvedRoot, key);
    if (!absolute.startsWith(resolvedRoot + path.sep)) throw new Error(`Storage key escapes the media root: ${key}`);
    return absolute;
  };

  const info = (key: string, stat: fs.Stats): ObjectInfo => ({
    key,
    bytes: stat.size,
    modifiedAt: stat.mtime,
    version: `${stat.size}-${stat.mtimeMs}-${stat.ino}`,
  });

  const stat = async (key: string): Promise<ObjectInfo | null> => {
    try {
      const s = await fsp.stat(pathFor(key));
      return s.isFile() ? info(key, s) : null;
    } catch (e) {
      if (isMissing(e)) return null;
      throw e;
    }
  };

  /** Writes through a ".partial" file, then renames it into place. */
  const writeAtomically = async (key: string, write: (partial: string) => Promise<void>): Promise<ObjectInfo> => {
    const target = pathFor(key);
    await fsp.mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
    const partial = `${target}.partial`;
    try {
      await write(partial);
      await fsp.chmod(partial, 0o600);
      await fsp.rename(partial, target);
    } catch (e) {
      await fsp.rm(partial, { force: true });
      throw e;
    }
    return info(key, await fsp.stat(target));
  };

  async function* walk(dir: string, relative: string): AsyncGenerator<{ key: string; file: string }> {
    let entries: fs.Dirent[];
    try {
      entries = await fsp.readdir(dir, { withFileTypes: true });
    } catch (e) {
      if (isMissing(e)) return;
      throw e;
    }
    for (const entry of entries) {
      const key = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.isDirectory()) yield* walk(path.join(dir, entry.name), key);
      else if (entry.isFile() && !entry.name.endsWith(".partial")) yield { key, file: path.join(dir, entry.name) };
    }
  }

  async function* list(prefix: string): AsyncGenerator<ObjectInfo> {
    assertValidPrefix(prefix, { allowEmpty: true });
    // walk only the folder the prefix names (or lies in), then filter by the whole prefix
    const folder = prefix.includes("/") ? prefix.slice(0, prefix.lastIndexOf("/")) : "";
    for await (const { key, file } of walk(folder ? path.join(resolvedRoot, folder) : resolvedRoot, folder)) {
      if (!key.startsWith(prefix)) continue;
      const s = await fsp.stat(file).catch(() => null);
      if (s?.isFile()) yield info(key, s);
    }
  }

  async function* partials(dir: string, relative: string): AsyncGenerator<{ name: string; file: string }> {
    const entries = await fsp.readdir(dir, { withFileTypes: true }).catch((e: unknown) => {
      if (isMissing(e)) return [] as fs.Dirent[];
      throw e;
    });
    for (const entry of entries) {
      const name = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.isDirectory()) yield* partials(path.join(dir, entry.name), name);
      else if (entry.isFile() && entry.name.endsWith(".partial")) yield { name, file: path.join(dir, entry.name) };
    }
  }

  const backend: StorageBackend = {
    kind: "local",
    describe: `the folder ${resolvedRoot}`,

    put(key, body: PutBody) {
      return writeAtomically(key, async (partial) => {
        if (Buffer.isBuffer(body) || body instanceof Uint8Array) await fsp.writeFile(partial, body, { mode: 0o600 });
        else if (body instanceof Readable) await pipeline(body, fs.createWriteStream(partial, { mode: 0o600 }));
        else await fsp.copyFile(body.path, partial);
      });
    },

    moveIn(key, sourcePath) {
      return writeAtomically(key, async (partial) => {
        try {
          await fsp.rename(sourcePath, partial);
        } catch (e) {
          if ((e as NodeJS.ErrnoException).code !== "EXDEV") throw e;
          // a temp dir on another file system: copy, then remove the source
          await fsp.copyFile(sourcePath, partial);
          await fsp.rm(sourcePath, { force: true });
        }
      });
    },

    async openRead(key, range?: ByteRange) {
      const file = pathFor(key);
      // open first, so a missing file rejects here rather than erroring the stream later
      const handle = await fsp.open(file, "r").catch((e: unknown) => {
        throw isMissing(e) ? new StorageNotFoundError(key) : e;
      });
      return handle.createReadStream(range ? { start: range.start, end: range.end } : {});
    },

    async read(key) {
      return fsp.readFile(pathFor(key)).catch((e: unknown) => {
        throw isMissing(e) ? new StorageNotFoundError(key) : e;
      });
    },

    stat,

    async delete(key) {
      await fsp.rm(pathFor(key), { force: true });
    },

    async deletePrefix(prefix) {
      assertValidPrefix(prefix, { allowEmpty: false });
      let removed = 0;
      for await (const object of list(prefix)) {
        await fsp.rm(pathFor(object.key), { force: true });
        removed += 1;
      }
      return removed;
    },

    list,

    async download(key, targetPath) {
      const source = await backend.openRead(key);
      const partial = `${targetPath}.partial`;
      try {
        await pipeline(source, fs.createWriteStream(partial, { mode: 0o600 }));
        await fsp.rename(partial, targetPath);
      } catch (e) {
        await fsp.rm(partial, { force: true });
        throw e;
      }
      return info(key, await fsp.stat(targetPath));
    },

    localPath: pathFor,

    async removeStalePartials(before) {
      const removed: string[] = [];
      for await (const { name, file } of partials(resolvedRoot, "")) {
        const s = await fsp.stat(file).catch(() => null);
        if (!s || s.mtimeMs > before.getTime()) continue;
        await fsp.rm(file, { force: true });
        removed.push(name);
      }
      return removed;
    },
  };
  return backend;
}
