// A process's scratch folder (decision 150): local copies of stored objects for the programs that need a file
// (ffmpeg, sharp, ffprobe, Chromium through the render's asset server). Copies are shared by whoever asks for the
// same object while it is held, kept after release for the next render, and removed least recently used first
// once the folder passes its size cap; a copy in use is never removed. Each process has a folder of its own
// (<base>/<host>-<pid>); folders of processes that are gone are removed when the cache starts, and the process's
// own at exit.
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { isProcessRunning } from "~/lib/process-running.server";
import { StorageNotFoundError, type StorageBackend } from "./backend.server";

export type ScratchCopy = {
  /** The copy's absolute path; its name ends like the key (".png", ".wav"), as ffmpeg and content types need. */
  path: string;
  /** Lets the cache remove the copy when it needs room; call once, when the program is done with the file. */
  release: () => void;
};

export type ScratchUsage = { files: number; bytes: number; inUse: number; maxBytes: number; dir: string };

export type ScratchCache = {
  acquire(key: string): Promise<ScratchCopy>;
  usage(): ScratchUsage;
  /** Removes every copy and the folder (copies in use too: for shutdown and tests). */
  destroy(): Promise<void>;
};

type Entry = { key: string; file: string; bytes: number; version: string; users: number; lastUsed: number; stale: boolean };

/** Removes the folders under `base` that processes on this host left behind when they died. */
function removeDeadFolders(base: string): void {
  const host = os.hostname();
  for (const name of fs.existsSync(base) ? fs.readdirSync(base) : []) {
    const match = /^(.+)-(\d+)$/.exec(name);
    if (!match || match[1] !== host || Number(match[2]) === process.pid || isProcessRunning(Number(match[2]))) continue;
    fs.rmSync(path.join(base, name), { recursive: true, force: true });
  }
}

export function createScratchCache(options: { backend: StorageBackend; baseDir: string; maxBytes: number }): ScratchCache {
  const { backend, maxBytes } = options;
  const dir = path.join(path.resolve(options.baseDir), `${os.hostname()}-${process.pid}`);
  const entries = new Map<string, Entry>();
  const downloads = new Map<string, Promise<void>>();
  let bytes = 0;
  /** A use counter, not the time: two uses within one millisecond still have an order. */
  let clock = 0;
  let ready: Promise<void> | undefined;
  const onExit = () => fs.rmSync(dir, { recursive: true, force: true });

  const prepare = () =>
    (ready ??= (async () => {
      removeDeadFolders(path.dirname(dir));
      await fsp.mkdir(dir, { recursive: true, mode: 0o700 });
      process.once("exit", onExit);
    })());

  const drop = async (entry: Entry) => {
    if (entries.get(entry.key) === entry) entries.delete(entry.key);
    bytes -= entry.bytes;
    await fsp.rm(entry.file, { force: true });
  };

  /** Removes idle copies, least recently used first, until `incoming` more bytes fit under the cap. */
  const makeRoom = async (incoming: number) => {
    while (bytes + incoming > maxBytes) {
      let oldest: Entry | undefined;
      for (const entry of entries.values()) if (entry.users === 0 && (!oldest || entry.lastUsed < oldest.lastUsed)) oldest = entry;
      if (!oldest) return; // everything left is in use: the folder runs over its cap until something is released
      await drop(oldest);
    }
  };

  const hold = (entry: Entry): ScratchCopy => {
    entry.users += 1;
    entry.lastUsed = ++clock;
    let released = false;
    return {
      path: entry.file,
      release: () => {
        if (released) return;
        released = true;
        entry.users -= 1;
        entry.lastUsed = ++clock;
        if (entry.users === 0 && entry.stale) void drop(entry);
        else void makeRoom(0);
      },
    };
  };

  const download = async (key: string) => {
    await prepare();
    const info = await backend.stat(key);
    if (!info) throw new StorageNotFoundError(key);
    await makeRoom(info.bytes);
    const file = path.join(dir, `${randomUUID()}-${path.posix.basename(key)}`);
    const copied = await backend.download(key, file);
    const entry: Entry = { key, file, bytes: copied.bytes, version: copied.version, users: 0, lastUsed: ++clock, stale: false };
    entries.set(key, entry);
    bytes += entry.bytes;
  };

  return {
    async acquire(key) {
      for (;;) {
        const pending = downloads.get(key);
        if (pending) {
          await pending;
          const fresh = entries.get(key);
          if (fresh) return hold(fresh);
          continue;
        }
        const cached = entries.get(key);
        if (cached) {
          // stored objects are written once, but a restore may put other bytes under a key: compare versions
          const info = await backend.stat(key);
          if (!info) throw new StorageNotFoundError(key);
          if (info.version === cached.version && fs.existsSync(cached.file)) return hold(cached);
          entries.delete(key);
          cached.stale = true;
          // a copy still held by someone is removed at its last release
          if (cached.users === 0) await drop(cached);
        }
        const started = download(key).finally(() => downloads.delete(key));
        downloads.set(key, started);
        await started;
        const entry = entries.get(key);
        if (entry) return hold(entry);
      }
    },

    usage: () => ({ files: entries.size, bytes, inUse: [...entries.values()].filter((e) => e.users > 0).length, maxBytes, dir }),

    async destroy() {
      process.removeListener("exit", onExit);
      entries.clear();
      bytes = 0;
      ready = undefined;
      await fsp.rm(dir, { recursive: true, force: true });
    },
  };
}
