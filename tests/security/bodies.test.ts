// Bodies are capped as streams. A 1 GB chunked upload (no Content-Length) sent over a real socket to a real
// route is answered 413 with a message after about the cap, and the process's memory stays flat; so is a
// multipart upload, whose parts are bounded too, and a scene clip streamed to storage (stopped at its limit, nothing
// left stored). A declared Content-Length past what the server drains never reaches a route.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { createReadableStreamFromReadable } from "@remix-run/node";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_JSON_BYTES, thrownResponse } from "~/server/api.server";
import { prisma } from "~/core/db.server";
import { drainUnreadBody } from "~/server/unread-body.server";
import { MAX_DECLARED_BODY_BYTES, mountGates } from "~/server/host/web-app.server";
import { getEnv } from "~/core/env.server";
import { seedUser, type Seeded } from "./seed";

const { action: generateScript } = await import("~/routes/script/api.generate-script");
const { action: upload } = await import("~/routes/settings/api.upload.$kind");
const { action: sceneMedia } = await import("~/routes/storyboard/api.scene-media");

let user: Seeded;
let server: http.Server;
let port: number;

type Action = (args: never) => Promise<Response> | Response;
// The same conversion Remix's Express adapter makes: the socket's body becomes the Request's stream.
function serve(routes: Record<string, { action: Action; params?: Record<string, string> }>) {
  return http.createServer(async (req, res) => {
    const route = routes[req.url ?? ""];
    if (!route) return void res.writeHead(404).end();
    const request = new Request(`http://localhost${req.url}`, {
      method: req.method,
      headers: req.headers as Record<string, string>,
      body: createReadableStreamFromReadable(req),
      duplex: "half",
    } as RequestInit);
    let answer: Response;
    try {
      answer = (await route.action({ request, params: route.params ?? {}, context: {} } as never)) as Response;
    } catch (e) {
      // a thrown Response or a refusal of the core, answered as the server does
      const thrown = thrownResponse(e);
      if (!thrown) throw e;
      answer = thrown;
    }
    // no "Connection: close": closing while the client still writes makes it fail with EPIPE before it reads the answer
    res.writeHead(answer.status, { "Content-Type": answer.headers.get("Content-Type") ?? "text/plain" });
    // once answered, the rest of the body is read and dropped (bounded), as the web server does (decision 198)
    res.once("finish", () => drainUnreadBody(req));
    res.end(Buffer.from(await answer.arrayBuffer()));
  });
}

/** Streams up to `totalBytes` chunked (no Content-Length) until the server answers; returns what was sent. */
function sendChunked(path: string, headers: Record<string, string>, totalBytes: number, chunk: Buffer, nextChunk: () => Buffer = () => chunk) {
  return new Promise<{ status: number; body: string; sentBytes: number; peakRss: number }>((resolve, reject) => {
    let sent = 0;
    let done = false;
    let peakRss = process.memoryUsage().rss;
    const req = http.request({ host: "127.0.0.1", port, path, method: "POST", headers: { ...headers, "Transfer-Encoding": "chunked" } });
    req.on("response", (res) => {
      done = true;
      let body = "";
      res.on("data", (d) => (body += d));
      res.on("end", () => {
        req.destroy();
        resolve({ status: res.statusCode ?? 0, body, sentBytes: sent, peakRss });
      });
    });
    req.on("error", (e) => (done ? undefined : reject(e)));
    const pump = () => {
      while (!done && sent < totalBytes) {
        const next = nextChunk();
        sent += next.length;
        peakRss = Math.max(peakRss, process.memoryUsage().rss);
        if (!req.write(next)) return void req.once("drain", pump);
      }
      if (!done && sent >= totalBytes) req.end();
    };
    pump();
  });
}

beforeAll(async () => {
  user = await seedUser("Body");
  server = serve({
    "/api/generate-script": { action: generateScript as Action },
    "/api/upload/watermark": { action: upload as Action, params: { kind: "watermark" } },
    "/api/scene-media": { action: sceneMedia as Action },
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.close();
  await prisma.$disconnect();
});

const GB = 1024 * 1024 * 1024;

describe("a 1 GB chunked body", () => {
  it("to a JSON route: 413 with a message once past ~1 MB, and memory stays flat", async () => {
    global.gc?.();
    const rssBefore = process.memoryUsage().rss;
    const chunk = Buffer.alloc(64 * 1024, "a");
    const result = await sendChunked("/api/generate-script", { Cookie: user.cookie, "Content-Type": "application/json" }, GB, chunk);
    expect(result.status).toBe(413);
    expect(JSON.parse(result.body).message).toMatch(/request body is too large: at most 1 MB/);
    // the server stopped reading right after the cap: far less than the gigabyte was ever sent
    expect(result.sentBytes).toBeLessThan(64 * 1024 * 1024);
    expect(result.peakRss - rssBefore).toBeLessThan(128 * 1024 * 1024);
    console.log(`1 GB chunked JSON: answered ${result.status} after ${(result.sentBytes / 1048576).toFixed(1)} MB sent; RSS grew ${((result.peakRss - rssBefore) / 1048576).toFixed(1)} MB (cap ${MAX_JSON_BYTES} bytes)`);
  }, 120_000);

  it("to the multipart upload: 413 'File too large' once past the watermark's 5 MB", async () => {
    const rssBefore = process.memoryUsage().rss;
    const boundary = "XyZ";
    const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="watermark"; filename="w.png"\r\nContent-Type: image/png\r\n\r\n`);
    const chunk = Buffer.concat([head, Buffer.alloc(64 * 1024 - head.length, 1)]);
    const result = await sendChunked("/api/upload/watermark", { Cookie: user.cookie, Origin: "http://localhost", "Content-Type": `multipart/form-data; boundary=${boundary}` }, GB, chunk);
    expect(result.status).toBe(413);
    expect(JSON.parse(result.body).message).toMatch(/File too large: the watermark must be 5 MB or smaller/);
    expect(result.sentBytes).toBeLessThan(64 * 1024 * 1024);
    expect(result.peakRss - rssBefore).toBeLessThan(128 * 1024 * 1024);
  }, 120_000);

  it("to the scene upload: 413 'File too large' once past the clip's 40 MB, nothing stored, and memory stays flat", async () => {
    global.gc?.();
    const rssBefore = process.memoryUsage().rss;
    const boundary = "ScEnE";
    // one clip part that never ends: an MP4's first bytes (file-type calls it mp4), then filler; streamed to storage
    // as it arrives (decision 199) and stopped at the clip limit, whatever the body's length
    const mp4Head = Buffer.concat([Buffer.from("000000206674797069736f6d0000020069736f6d69736f32617663316d703431", "hex"), Buffer.alloc(32)]);
    const head = Buffer.concat([Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="cellIndex"\r\n\r\n0\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="c.mp4"\r\nContent-Type: video/mp4\r\n\r\n`), mp4Head]);
    let first = true;
    const filler = Buffer.alloc(64 * 1024, 2);
    const result = await sendChunked("/api/scene-media", { Cookie: user.cookie, Origin: "http://localhost", "Content-Type": `multipart/form-data; boundary=${boundary}` }, GB, filler, () => {
      if (!first) return filler;
      first = false;
      return head;
    });
    expect(result.status).toBe(413);
    expect(JSON.parse(result.body).message).toMatch(/File too large: a scene clip must be 40 MB or smaller/);
    expect(result.sentBytes).toBeLessThan(128 * 1024 * 1024);
    expect(result.peakRss - rssBefore).toBeLessThan(160 * 1024 * 1024);
    // the part written before the limit was removed with its row: nothing of it is left in storage
    expect(await prisma.mediaFile.count({ where: { userId: user.user.id, kind: "clip" } })).toBe(0);
    console.log(`1 GB chunked scene upload: answered ${result.status} after ${(result.sentBytes / 1048576).toFixed(1)} MB sent; RSS grew ${((result.peakRss - rssBefore) / 1048576).toFixed(1)} MB`);
  }, 120_000);

  it("a scene upload with too many parts is refused with 413", async () => {
    const boundary = "P";
    const parts = Array.from({ length: 50 }, (_, i) => `--${boundary}\r\nContent-Disposition: form-data; name="f${i}"; filename="f${i}.png"\r\nContent-Type: image/png\r\n\r\nv\r\n`).join("");
    const request = new Request("http://localhost/api/scene-media", {
      method: "POST",
      body: `${parts}--${boundary}--\r\n`,
      headers: { Cookie: user.cookie, "Content-Type": `multipart/form-data; boundary=${boundary}` },
    });
    const answer = await sceneMedia({ request, params: {}, context: {} } as never);
    expect(answer.status).toBe(413);
    expect((await answer.json()).message).toMatch(/too many form fields/);
  });

  it("a multipart form with too many parts is refused with 413", async () => {
    const boundary = "B";
    const parts = Array.from({ length: 50 }, (_, i) => `--${boundary}\r\nContent-Disposition: form-data; name="f${i}"\r\n\r\nv\r\n`).join("");
    const body = `${parts}--${boundary}--\r\n`;
    const request = new Request("http://localhost/api/upload/watermark", {
      method: "POST",
      body,
      headers: { Cookie: user.cookie, "Content-Type": `multipart/form-data; boundary=${boundary}` },
    });
    const answer = await upload({ request, params: { kind: "watermark" }, context: {} } as never);
    expect(answer.status).toBe(413);
    expect((await answer.json()).message).toMatch(/too many form fields/);
  });
});

describe("the /api gate", () => {
  it("answers 413 to a declared Content-Length past what the server would drain, before any route runs", async () => {
    const app = express();
    let reached = false;
    mountGates(app, { env: getEnv(), dev: false, routes: () => [] });
    app.use(() => {
      reached = true;
    });
    const gate = app.listen(0, "127.0.0.1");
    await new Promise((r) => gate.once("listening", r));
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request({
        host: "127.0.0.1",
        port: (gate.address() as AddressInfo).port,
        path: "/api/generate-script",
        method: "POST",
        headers: { "Content-Length": String(MAX_DECLARED_BODY_BYTES + 1), Cookie: user.cookie, "Content-Type": "application/json" },
      });
      req.on("response", (res) => {
        let body = "";
        res.on("data", (d) => (body += d));
        res.on("end", () => resolve({ status: res.statusCode!, body }));
      });
      req.on("error", reject);
      req.write("{");
    });
    gate.close();
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body).message).toMatch(/too large/);
    expect(reached).toBe(false);
  });
});
