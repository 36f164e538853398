// The contract every media storage backend keeps (decision 150): a flat namespace of immutable-by-convention
// objects named by keys like "<userId>/<kind>/<uuid>.mp4". Two backends: a local folder (local.server.ts) and
// an S3-compatible bucket (s3.server.ts). storage.server.ts picks one from the environment.
import type { Readable } from "node:stream";

export type StorageKind = "local" | "s3";

/** An inclusive byte range, as HTTP's Range header counts: { start: 0, end: 99 } is the first 100 bytes. */
export type ByteRange = { start: number; end: number };

export type ObjectInfo = {
  key: string;
  bytes: number;
  modifiedAt: Date;
  /** Changes whenever the object's bytes change (S3's ETag; size and mtime for a local file). */
  version: string;
};

/** Bytes in memory, a stream (read once, to its end), or a local file's path (read, not moved). */
export type PutBody = Buffer | Uint8Array | Readable | { path: string };

export type PutOptions = { contentType?: string };

export class StorageNotFoundError extends Error {
  constructor(readonly key: string) {
    super(`No stored object named ${key}`);
    this.name = "StorageNotFoundError";
  }
}

export interface StorageBackend {
  readonly kind: StorageKind;
  /** Writes the object whole; a reader never sees part of it. Returns its size. */
  put(key: string, body: PutBody, options?: PutOptions): Promise<ObjectInfo>;
  /** Stores a local file under the key; the source path is gone afterwards (renamed when it can be, else copied). */
  moveIn(key: string, sourcePath: string, options?: PutOptions): Promise<ObjectInfo>;
  /** A stream of the object, or of the inclusive range; rejects with StorageNotFoundError when it is missing. */
  openRead(key: string, range?: ByteRange): Promise<Readable>;
  /** The whole object in memory (small files only: images, logos). */
  read(key: string): Promise<Buffer>;
  /** Size and version, or null when there is no such object. */
  stat(key: string): Promise<ObjectInfo | null>;
  /** Removes the object; a missing one is fine. */
  delete(key: string): Promise<void>;
  /** Removes every object whose key starts with the prefix (which must be non-empty); returns how many. */
  deletePrefix(prefix: string): Promise<number>;
  /** Every object whose key starts with the prefix ("" for all), in no particular order. */
  list(prefix: string): AsyncIterable<ObjectInfo>;
  /** Copies the object to a local file (written whole, then renamed into place). */
  download(key: string, targetPath: string): Promise<ObjectInfo>;
  /** The object's own file when the backend is a local folder (no copy needed); null for a bucket. */
  localPath(key: string): string | null;
  /**
   * Removes what interrupted writes left behind before `before` (".partial" files in a folder, unfinished
   * multipart uploads in a bucket); returns what it removed (relative paths or keys).
   */
  removeStalePartials(before: Date): Promise<string[]>;
  /** Where the objects are, for messages: "the folder /x/media", "the bucket reelsmith at http://...". */
  readonly describe: string;
}

const KEY = /^[A-Za-z0-9_-][A-Za-z0-9._/-]{0,1023}$/;

/** Keys are relative, slash-separated, with no "." or ".." segment and no empty one. */
export function assertValidKey(key: string): void {
  if (!KEY.test(key) || key.split("/").some((segment) => segment === "" || segment === "." || segment === "..")) {
    throw new Error(`Invalid storage key: ${JSON.stringify(key)}`);
  }
}

export function assertValidPrefix(prefix: string, { allowEmpty }: { allowEmpty: boolean }): void {
  if (prefix === "" && allowEmpty) return;
  if (prefix === "") throw new Error("An empty prefix would name every stored object");
  assertValidKey(prefix.endsWith("/") ? `${prefix}x` : prefix);
}
