// The web server's byte delivery: precompressed assets with the right headers, pages and JSON compressed on the
// fly, and server-sent events passed through uncompressed as they are written.
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { IMMUTABLE, compressedResponses, fingerprintedAssets } from "./static-assets.server";

const script = "console.log('reelsmith');\n".repeat(200);
let dir: string;
let server: http.Server;
let base: string;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "reelsmith-assets-"));
  fs.writeFileSync(path.join(dir, "app-abc123.js"), script);
  fs.writeFileSync(path.join(dir, "app-abc123.js.br"), zlib.brotliCompressSync(script));
  fs.writeFileSync(path.join(dir, "app-abc123.js.gz"), zlib.gzipSync(script));
  fs.writeFileSync(path.join(dir, "logo-abc123.png"), Buffer.from([0x89, 0x50, 0x4e, 0x47]));
  const app = express();
  app.use("/assets", ...fingerprintedAssets(dir));
  app.use(compressedResponses());
  app.get("/data", (_req, res) => {
    res.json({ items: Array.from({ length: 200 }, (_, i) => ({ id: i, name: `scene ${i}` })) });
  });
  app.get("/events", (_req, res) => {
    res.writeHead(200, { "Content-Type": "text/event-stream", "Cache-Control": "no-cache" });
    res.write(`data: ${"first ".repeat(300)}\n\n`);
    // stays open: the first event must arrive without the stream ending
  });
  server = app.listen(0, "127.0.0.1");
  await new Promise((r) => server.once("listening", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
  fs.rmSync(dir, { recursive: true, force: true });
});

/** GET with the given Accept-Encoding; the raw (still encoded) body and the headers. */
function get(url: string, acceptEncoding: string): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get(`${base}${url}`, { headers: { "Accept-Encoding": acceptEncoding } }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      })
      .on("error", reject);
  });
}

describe("fingerprinted assets", () => {
  it("sends the brotli twin to a browser that accepts brotli, as JavaScript, cached as immutable", async () => {
    const r = await get("/assets/app-abc123.js", "gzip, deflate, br");
    expect(r.status).toBe(200);
    expect(r.headers["content-encoding"]).toBe("br");
    expect(r.headers["content-type"]).toMatch(/^application\/javascript/);
    expect(r.headers["cache-control"]).toBe(IMMUTABLE);
    expect(r.headers.vary).toMatch(/Accept-Encoding/);
    expect(zlib.brotliDecompressSync(r.body).toString()).toBe(script);
  });

  it("sends the gzip twin when brotli is not accepted, and the plain file when neither is", async () => {
    const gz = await get("/assets/app-abc123.js", "gzip");
    expect(gz.headers["content-encoding"]).toBe("gzip");
    expect(zlib.gunzipSync(gz.body).toString()).toBe(script);
    const plain = await get("/assets/app-abc123.js", "identity");
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.headers["cache-control"]).toBe(IMMUTABLE);
    expect(plain.body.toString()).toBe(script);
  });

  it("serves a file without twins as it is, and nothing outside the folder", async () => {
    const png = await get("/assets/logo-abc123.png", "br");
    expect(png.status).toBe(200);
    expect(png.headers["content-encoding"]).toBeUndefined();
    expect(png.headers["cache-control"]).toBe(IMMUTABLE);
    expect((await get("/assets/..%2f..%2fetc%2fpasswd", "br")).status).toBe(404);
    expect((await get("/assets/missing-abc123.js", "br")).status).toBe(404);
  });
});

describe("compressed answers", () => {
  it("compresses JSON with brotli, else gzip", async () => {
    const br = await get("/data", "gzip, br");
    expect(br.headers["content-encoding"]).toBe("br");
    expect(JSON.parse(zlib.brotliDecompressSync(br.body).toString()).items).toHaveLength(200);
    const gz = await get("/data", "gzip");
    expect(gz.headers["content-encoding"]).toBe("gzip");
  });

  it("passes server-sent events through uncompressed, each event as it is written", async () => {
    const first = await new Promise<{ headers: http.IncomingHttpHeaders; chunk: string }>((resolve, reject) => {
      const req = http.get(`${base}/events`, { headers: { "Accept-Encoding": "gzip, br" } }, (res) => {
        res.once("data", (c: Buffer) => {
          resolve({ headers: res.headers, chunk: c.toString() });
          req.destroy();
        });
      });
      req.on("error", (e) => (req.destroyed ? undefined : reject(e)));
    });
    expect(first.headers["content-encoding"]).toBeUndefined();
    expect(first.chunk).toMatch(/^data: first/);
  });
});
