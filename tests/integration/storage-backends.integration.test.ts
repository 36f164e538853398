// The storage contract (decision 150), kept by both backends: the local folder and a real S3 server (versitygw,
// started by the test servers). Objects in and out (bytes, streams, files), sizes and versions, byte ranges,
// missing objects, invalid keys, prefixes; and the scratch cache a worker copies bucket objects into: shared
// copies, a size cap, least-recently-used eviction that never touches a copy in use, and cleanup.
import crypto from "node:crypto";
import fs from "node:fs";
import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { CreateMultipartUploadCommand, UploadPartCommand } from "@aws-sdk/client-s3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { StorageNotFoundError, type StorageBackend } from "~/core/storage/backend.server";
import { createLocalBackend } from "~/core/storage/local.server";
import { createS3Backend } from "~/core/storage/s3.server";
import { createScratchCache } from "~/core/storage/scratch.server";
import { createTestBucket, type TestBucket } from "../support/object-store";

const MiB = 1024 * 1024;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "reelsmith-storage-contract-"));
const bucket: TestBucket = await createTestBucket();
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const backends: [string, () => StorageBackend][] = [
  ["local folder", () => createLocalBackend(path.join(tmp, "media"))],
  ["S3 bucket (versitygw)", () => createS3Backend(bucket.config)],
];

const random = (bytes: number) => crypto.randomBytes(bytes);
const drain = async (stream: Readable) => {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
};

describe("the storage module with the default local folder", () => {
  it("hands programs the stored file itself, no copy, and has no scratch cache", async () => {
    const { prisma } = await import("~/core/db.server");
    const { localMediaPath, mediaBackend, mediaFilePath, mediaScratch, saveMedia, withLocalMediaCopy } = await import("~/core/storage.server");
    const user = await prisma.user.create({ data: { email: "local-storage@example.com" } });
    const file = await saveMedia({ userId: user.id, kind: "voiceover", mimeType: "audio/wav", extension: "wav", data: Buffer.from("RIFF....WAVE") });
    expect(mediaBackend().kind).toBe("local");
    expect(mediaScratch()).toBeNull();
    const local = await localMediaPath(file);
    expect(local.path).toBe(mediaFilePath(file));
    local.release();
    expect(await withLocalMediaCopy(file, async (p) => fs.readFileSync(p).toString())).toBe("RIFF....WAVE");
    await expect(localMediaPath({ storageKey: `${user.id}/voiceover/missing.wav` })).rejects.toBeInstanceOf(StorageNotFoundError);
    await prisma.$disconnect();
  });
});

describe("a bucket that cannot be used", () => {
  it("names the bucket and what to check: nothing listening, wrong keys, no such bucket", async () => {
    const unreachable = createS3Backend({ ...bucket.config, endpoint: "http://127.0.0.1:9", bucket: bucket.config.bucket });
    await expect(unreachable.stat("any/key.png")).rejects.toThrow(/Media storage is unreachable: the bucket test-.* at http:\/\/127\.0\.0\.1:9 did not answer \(ECONNREFUSED\)\. Check S3_ENDPOINT/);
    const wrongKeys = createS3Backend({ ...bucket.config, secretAccessKey: "not-the-secret" });
    await expect(wrongKeys.put("any/key.png", Buffer.from("x"))).rejects.toThrow(/refused the credentials .*\(SignatureDoesNotMatch\)\. Check S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY/);
    const noBucket = createS3Backend({ ...bucket.config, bucket: "no-such-bucket-here" });
    await expect(noBucket.put("any/key.png", Buffer.from("x"))).rejects.toThrow(/the bucket no-such-bucket-here .* does not exist\. Create it, or check S3_BUCKET/);
    const listing = async () => {
      for await (const object of noBucket.list("any/")) if (object) break;
    };
    await expect(listing()).rejects.toThrow(/the bucket no-such-bucket-here .* does not exist/);
  });
});

describe.each(backends)("storage backend: %s", (name, make) => {
  let store: StorageBackend;
  const root = `contract-${name.split(" ")[0]}`;
  beforeAll(() => {
    store = make();
  });

  it("stores bytes, a stream and a file whole, and reads them back with their size", async () => {
    const bytes = random(1000);
    const put = await store.put(`${root}/a/bytes.bin`, bytes, { contentType: "application/octet-stream" });
    expect(put).toMatchObject({ key: `${root}/a/bytes.bin`, bytes: 1000 });
    expect((await store.read(`${root}/a/bytes.bin`)).equals(bytes)).toBe(true);

    // a stream of 20 MiB: in parts (multipart upload) with a bucket, never whole in memory
    const big = random(20 * MiB);
    await store.put(`${root}/a/stream.bin`, Readable.from([big.subarray(0, 7 * MiB), big.subarray(7 * MiB)]));
    expect((await store.stat(`${root}/a/stream.bin`))?.bytes).toBe(20 * MiB);
    expect((await drain(await store.openRead(`${root}/a/stream.bin`))).equals(big)).toBe(true);

    const file = path.join(tmp, `${name}-source.wav`);
    await fsp.writeFile(file, bytes);
    await store.put(`${root}/a/copied.wav`, { path: file });
    expect(fs.existsSync(file)).toBe(true); // put reads a file, moveIn takes it
    const moved = await store.moveIn(`${root}/a/moved.wav`, file);
    expect(moved.bytes).toBe(1000);
    expect(fs.existsSync(file)).toBe(false);
    expect((await store.read(`${root}/a/moved.wav`)).equals(bytes)).toBe(true);
  });

  it("reads inclusive byte ranges: the start, the middle, the last byte, across a part boundary", async () => {
    const big = await store.read(`${root}/a/stream.bin`);
    for (const [start, end] of [
      [0, 0],
      [0, 99],
      [5000, 5999],
      [8 * MiB - 10, 8 * MiB + 10],
      [20 * MiB - 1, 20 * MiB - 1],
    ] as const) {
      const part = await drain(await store.openRead(`${root}/a/stream.bin`, { start, end }));
      expect(part.length, `${start}-${end}`).toBe(end - start + 1);
      expect(part.equals(big.subarray(start, end + 1)), `${start}-${end}`).toBe(true);
    }
  });

  it("a version changes when other bytes are put under the key", async () => {
    const first = await store.put(`${root}/v/object.txt`, Buffer.from("first"));
    const again = await store.stat(`${root}/v/object.txt`);
    expect(again?.version).toBe(first.version);
    const second = await store.put(`${root}/v/object.txt`, Buffer.from("second, longer"));
    expect(second.version).not.toBe(first.version);
    expect((await store.read(`${root}/v/object.txt`)).toString()).toBe("second, longer");
  });

  it("a missing object: stat is null, reads reject with StorageNotFoundError, delete is fine", async () => {
    const key = `${root}/missing/nothing.mp4`;
    expect(await store.stat(key)).toBeNull();
    await expect(store.read(key)).rejects.toBeInstanceOf(StorageNotFoundError);
    await expect(store.openRead(key, { start: 0, end: 10 })).rejects.toBeInstanceOf(StorageNotFoundError);
    await expect(store.download(key, path.join(tmp, "nothing.mp4"))).rejects.toBeInstanceOf(StorageNotFoundError);
    expect(fs.existsSync(path.join(tmp, "nothing.mp4"))).toBe(false);
    await expect(store.delete(key)).resolves.toBeUndefined();
  });

  it("refuses keys that could escape or alias: parent segments, absolute, empty segments, empty", async () => {
    for (const key of ["../outside.txt", `${root}/../../etc/passwd`, "/absolute.txt", `${root}//double.txt`, `${root}/./dot.txt`, "", `${root}/trailing/`, "with space.txt"]) {
      await expect(store.put(key, Buffer.from("x")), JSON.stringify(key)).rejects.toThrow(/Invalid storage key/);
      await expect(store.stat(key), JSON.stringify(key)).rejects.toThrow(/Invalid storage key/);
      await expect(store.delete(key), JSON.stringify(key)).rejects.toThrow(/Invalid storage key/);
    }
    await expect(store.deletePrefix("")).rejects.toThrow(/empty prefix/);
    expect(fs.existsSync(path.join(tmp, "outside.txt"))).toBe(false);
  });

  it("lists and deletes by prefix, and nothing outside it", async () => {
    for (const key of ["p/u1/image/1.png", "p/u1/video/2.mp4", "p/u12/image/3.png", "p/u2/image/4.png"]) await store.put(`${root}/${key}`, Buffer.from(key));
    const listed = async (prefix: string) => {
      const keys: string[] = [];
      for await (const o of store.list(prefix)) keys.push(o.key);
      return keys.sort();
    };
    expect(await listed(`${root}/p/u1/`)).toEqual([`${root}/p/u1/image/1.png`, `${root}/p/u1/video/2.mp4`]);
    expect(await listed(`${root}/p/u1`)).toHaveLength(3); // a prefix, not a folder: u12 too
    expect(await store.deletePrefix(`${root}/p/u1/`)).toBe(2);
    expect(await listed(`${root}/p/`)).toEqual([`${root}/p/u12/image/3.png`, `${root}/p/u2/image/4.png`]);
    expect(await store.deletePrefix(`${root}/p/nobody/`)).toBe(0);
  });

  it("downloads whole into a local file, and removes stale partial writes", async () => {
    const target = path.join(tmp, `${name}-download.bin`);
    const info = await store.download(`${root}/a/bytes.bin`, target);
    expect(info.bytes).toBe(1000);
    expect(fs.readFileSync(target).equals(await store.read(`${root}/a/bytes.bin`))).toBe(true);

    if (store.kind === "local") {
      const partial = path.join(tmp, "media", root, "a", "crashed.mp4.partial");
      await fsp.writeFile(partial, "half");
      expect(await store.removeStalePartials(new Date(Date.now() - 60_000))).toEqual([]);
      expect(await store.removeStalePartials(new Date(Date.now() + 60_000))).toEqual([`${root}/a/crashed.mp4.partial`]);
      expect(fs.existsSync(partial)).toBe(false);
    } else {
      // an upload a crashed worker began and never finished
      const key = `${root}/a/crashed.mp4`;
      const { UploadId } = await bucket.client.send(new CreateMultipartUploadCommand({ Bucket: bucket.config.bucket, Key: key }));
      await bucket.client.send(new UploadPartCommand({ Bucket: bucket.config.bucket, Key: key, UploadId, PartNumber: 1, Body: random(1000) }));
      expect(await store.removeStalePartials(new Date(Date.now() - 60 * 60_000))).toEqual([]);
      expect(await store.removeStalePartials(new Date(Date.now() + 60_000))).toEqual([key]);
      expect(await store.removeStalePartials(new Date(Date.now() + 60_000))).toEqual([]);
    }
  });

  it("localPath: the object's own file in a folder, none for a bucket", async () => {
    const own = store.localPath(`${root}/a/bytes.bin`);
    if (store.kind === "local") expect(fs.readFileSync(own!).equals(await store.read(`${root}/a/bytes.bin`))).toBe(true);
    else expect(own).toBeNull();
  });

  describe("scratch cache", () => {
    const scratchBase = path.join(tmp, `scratch-${name.split(" ")[0]}`);
    const keys = ["s/1.bin", "s/2.bin", "s/3.bin", "s/4.bin", "s/5.bin"].map((k) => `${root}/${k}`);
    beforeAll(async () => {
      for (const [i, key] of keys.entries()) await store.put(key, Buffer.alloc(MiB, i + 1));
    });

    it("copies once, shares a copy, keeps the cap by evicting the least recently used copy not in use", async () => {
      const cache = createScratchCache({ backend: store, baseDir: scratchBase, maxBytes: 3 * MiB });
      const [a, b] = await Promise.all([cache.acquire(keys[0]!), cache.acquire(keys[0]!)]);
      expect(a.path).toBe(b.path); // two users, one copy
      expect(a.path.endsWith("-1.bin")).toBe(true); // the name ends like the key, as ffmpeg and content types need
      expect(fs.readFileSync(a.path)[0]).toBe(1);
      a.release();
      b.release();
      b.release(); // twice is harmless

      const held = await cache.acquire(keys[1]!); // in use throughout
      for (const key of [keys[2]!, keys[3]!]) (await cache.acquire(key)).release();
      // 0 (idle, oldest), 1 (held), 2 and 3 would be 4 MiB: the oldest idle copy went
      expect(cache.usage()).toMatchObject({ files: 3, bytes: 3 * MiB, inUse: 1 });
      expect(fs.existsSync(a.path)).toBe(false);
      (await cache.acquire(keys[4]!)).release();
      expect(fs.existsSync(held.path)).toBe(true); // never evicted while held
      expect(fs.readFileSync(held.path)[0]).toBe(2);
      expect(cache.usage().bytes).toBeLessThanOrEqual(3 * MiB);

      // a copy used again becomes the most recent: keys[3] is used after keys[4], so keys[4] goes first
      (await cache.acquire(keys[3]!)).release();
      (await cache.acquire(keys[0]!)).release();
      const files = fs.readdirSync(cache.usage().dir);
      expect(files.some((f) => f.endsWith("-4.bin"))).toBe(true);
      expect(files.some((f) => f.endsWith("-5.bin"))).toBe(false);

      held.release();
      await cache.destroy();
      expect(fs.existsSync(cache.usage().dir)).toBe(false);
    });

    it("a copy whose object changed is fetched again; a missing object rejects", async () => {
      const cache = createScratchCache({ backend: store, baseDir: scratchBase, maxBytes: 10 * MiB });
      const first = await cache.acquire(keys[0]!);
      first.release();
      await store.put(keys[0]!, Buffer.alloc(MiB, 9));
      const second = await cache.acquire(keys[0]!);
      expect(fs.readFileSync(second.path)[0]).toBe(9);
      second.release();
      await expect(cache.acquire(`${root}/s/none.bin`)).rejects.toBeInstanceOf(StorageNotFoundError);
      await cache.destroy();
    });

    it("removes the folders of processes that are gone when it starts", async () => {
      const dead = path.join(scratchBase, `${os.hostname()}-999999999`);
      await fsp.mkdir(dead, { recursive: true });
      await fsp.writeFile(path.join(dead, "left.bin"), "left by a killed worker");
      const cache = createScratchCache({ backend: store, baseDir: scratchBase, maxBytes: 10 * MiB });
      (await cache.acquire(keys[1]!)).release();
      expect(fs.existsSync(dead)).toBe(false);
      await cache.destroy();
    });
  });
});
