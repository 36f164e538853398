// A refused body is answered so clients can read it (issue 47, decision 198). Against the real web server (server.ts,
// the production build, over real sockets): Node's fetch and curl send 10 MB to each JSON route and read a 413 with
// its reason (JSON; an RFC 9457 problem for /api/v1), never EPIPE or a reset; so does a body sent chunked, with no
// length. And another creator's project id answers 404 whatever body comes with it (malformed, or too large): the
// owner is checked before the body is read.
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { prisma } from "~/core/db.server";
import { makeVideoWorkflowId } from "../../workflows/shared/make-video";
import { startWebProcess, type WebProcess } from "../support/web-process";
import { seedUser, type Seeded } from "./seed";

const MB = 1024 * 1024;
let web: WebProcess;
let a: Seeded;
let viaFetch: Seeded;
let viaCurl: Seeded;
let runId: string;

type Answer = { status: number; contentType: string; body: string };

async function withFetch(url: string, init: { method: string; headers: Record<string, string>; body: Buffer | ReadableStream<Uint8Array> }): Promise<Answer> {
  const response = await fetch(url, { ...init, ...(init.body instanceof ReadableStream ? { duplex: "half" } : {}) } as RequestInit);
  return { status: response.status, contentType: response.headers.get("content-type") ?? "", body: await response.text() };
}

/** curl, spawned, sending the file's bytes with a Content-Length: the status, content type and body it read. */
function withCurl(url: string, method: string, headers: Record<string, string>, file: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const args = ["-sS", "-X", method, "--data-binary", `@${file}`, "-o", "-", "-w", "\n%{http_code} %{content_type}"];
    for (const [name, value] of Object.entries(headers)) args.push("-H", `${name}: ${value}`);
    const child = spawn("curl", [...args, url]);
    let out = "";
    let err = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (err += d));
    child.on("error", reject);
    child.on("close", (code) => {
      // curl's own failures (a reset: 56, a send error: 55) are what this test is about: they fail it
      if (code !== 0) return reject(new Error(`curl exited ${code}: ${err.trim()}`));
      const cut = out.lastIndexOf("\n");
      const [status, contentType = ""] = out.slice(cut + 1).split(" ");
      resolve({ status: Number(status), contentType, body: out.slice(0, cut) });
    });
  });
}

/** A body of `bytes` streamed in 64 KB chunks, with no length (Transfer-Encoding: chunked). */
function chunkedBody(bytes: number): ReadableStream<Uint8Array> {
  let sent = 0;
  return new ReadableStream({
    pull(controller) {
      if (sent >= bytes) return controller.close();
      const chunk = new Uint8Array(Math.min(64 * 1024, bytes - sent)).fill(0x20);
      sent += chunk.length;
      controller.enqueue(chunk);
    },
  });
}

// each JSON route of the issue, with the 10 MB body it was sent: padding inside a JSON string, or (the model list)
// nothing but nesting
const tenMegabytes = (shape: (pad: string) => string) => Buffer.from(shape("x".repeat(10 * MB - 200)));
const ROUTES: { path: string; body: Buffer; reason: RegExp; problem?: boolean }[] = [
  { path: "/api/projects", body: tenMegabytes((pad) => JSON.stringify({ title: pad, topic: "t", resolution: "shorts", duration: 30 })), reason: /request body is too large: at most 1 MB/ },
  { path: "/api/generate-script", body: tenMegabytes((pad) => JSON.stringify({ title: "t", topic: pad })), reason: /request body is too large: at most 1 MB/ },
  { path: "/api/render-video", body: tenMegabytes((pad) => JSON.stringify({ quality: pad })), reason: /request body is too large: at most 1 MB/ },
  { path: "/api/render-background-music", body: tenMegabytes((pad) => JSON.stringify({ trackId: pad })), reason: /request body is too large: at most 1 MB/ },
  { path: "/api/youtube/upload", body: tenMegabytes((pad) => JSON.stringify({ title: pad })), reason: /request body is too large: at most 1 MB/ },
  { path: "/api/openai-compatible/models", body: Buffer.from("[".repeat(5 * MB) + "]".repeat(5 * MB)), reason: /request body is too large: at most 8 KB/ },
  { path: "/api/v1/videos", body: tenMegabytes((pad) => JSON.stringify({ title: pad, topic: "t" })), reason: /request body is too large: at most 1 MB/, problem: true },
];

function expectReadableRefusal(answer: Answer, route: (typeof ROUTES)[number], status = 413) {
  expect(answer.status, `${route.path}: ${answer.body.slice(0, 200)}`).toBe(status);
  if (route.problem) {
    expect(answer.contentType).toMatch(/^application\/problem\+json/);
    const problem = JSON.parse(answer.body) as { status: number; type: string; detail: string };
    expect(problem).toMatchObject({ status, type: "https://reelsmith.dev/problems/too-large" });
    expect(problem.detail).toMatch(route.reason);
  } else {
    expect(answer.contentType).toMatch(/^application\/json/);
    expect((JSON.parse(answer.body) as { message: string }).message).toMatch(route.reason);
  }
}

beforeAll(async () => {
  a = await seedUser("RefusedA");
  viaFetch = await seedUser("RefusedFetch");
  viaCurl = await seedUser("RefusedCurl");
  runId = (await prisma.videoRun.create({ data: { userId: a.user.id, projectId: a.projectId, options: { title: "t", topic: "t" }, status: "completed", stage: "done", percent: 100, workflowId: makeVideoWorkflowId(a.projectId) } })).id;
  web = await startWebProcess();
}, 900_000);
afterAll(async () => {
  await web?.stop();
  await prisma.$disconnect();
});

describe("10 MB to each JSON route", () => {
  for (const route of ROUTES) {
    it(`${route.path}: Node's fetch reads the 413 and its reason`, async () => {
      const answer = await withFetch(web.baseUrl + route.path, { method: "POST", headers: { Cookie: viaFetch.cookie, "Content-Type": "application/json" }, body: route.body });
      expectReadableRefusal(answer, route);
    });

    it(`${route.path}: curl reads the 413 and its reason`, async () => {
      const file = path.join(process.env.DATA_DIR!, "ten-megabytes.json");
      fs.writeFileSync(file, route.body);
      const answer = await withCurl(web.baseUrl + route.path, "POST", { Cookie: viaCurl.cookie, "Content-Type": "application/json", Expect: "" }, file);
      expectReadableRefusal(answer, route);
    });

    it(`${route.path}: sent chunked (no length), Node's fetch reads the 413 too`, async () => {
      const answer = await withFetch(web.baseUrl + route.path, { method: "POST", headers: { Cookie: viaFetch.cookie, "Content-Type": "application/json" }, body: chunkedBody(10 * MB) });
      expectReadableRefusal(answer, route);
    });
  }

  it("past what the server drains (100 MB declared) the gate refuses at once, naming the limit", async () => {
    // answered and closed without reading: curl reads the answer before it sends the body (Expect: 100-continue)
    const file = path.join(process.env.DATA_DIR!, "small.json");
    fs.writeFileSync(file, "{}");
    const answer = await new Promise<string>((resolve, reject) => {
      const child = spawn("curl", ["-sS", "-X", "POST", "-H", `Cookie: ${viaCurl.cookie}`, "-H", "Content-Type: application/json", "-H", `Content-Length: ${100 * MB}`, "-H", "Expect: 100-continue", "--data-binary", `@${file}`, "-w", "\n%{http_code}", `${web.baseUrl}/api/projects`]);
      let out = "";
      child.stdout.on("data", (d) => (out += d));
      child.on("error", reject);
      child.on("close", () => resolve(out));
    });
    expect(answer.split("\n").at(-1)).toBe("413");
    expect(answer).toMatch(/request body is too large: at most 64 MB/);
  });
});

describe("another creator's project id with any body", () => {
  const tooLarge = () => Buffer.alloc(10 * MB, 0x20);
  const cases = () => [
    { method: "PUT", path: `/api/projects/${a.projectId}/narration` },
    { method: "POST", path: `/api/projects/${a.projectId}/scenes` },
    { method: "PUT", path: `/api/projects/${a.projectId}/script` },
    { method: "POST", path: `/api/v1/videos/${runId}/publish` },
  ];

  it("a malformed body: 404, as for a missing project (the owner is checked first)", async () => {
    for (const { method, path: p } of cases()) {
      const answer = await withFetch(web.baseUrl + p, { method, headers: { Cookie: viaFetch.cookie, "Content-Type": "application/json" }, body: Buffer.from("{not json") });
      expect(answer.status, `${method} ${p}: ${answer.body}`).toBe(404);
    }
  });

  it("a 10 MB body: 404 too, read by fetch and by curl", async () => {
    const file = path.join(process.env.DATA_DIR!, "ten-megabytes-of-spaces.json");
    fs.writeFileSync(file, tooLarge());
    for (const { method, path: p } of cases()) {
      const fetched = await withFetch(web.baseUrl + p, { method, headers: { Cookie: viaFetch.cookie, "Content-Type": "application/json" }, body: tooLarge() });
      expect(fetched.status, `${method} ${p}: ${fetched.body}`).toBe(404);
      const curled = await withCurl(web.baseUrl + p, method, { Cookie: viaCurl.cookie, "Content-Type": "application/json", Expect: "" }, file);
      expect(curled.status, `${method} ${p}: ${curled.body}`).toBe(404);
    }
  });

  it("the owner's own malformed body is still a 400 naming the problem", async () => {
    const answer = await withFetch(`${web.baseUrl}/api/projects/${a.projectId}/narration`, { method: "PUT", headers: { Cookie: a.cookie, "Content-Type": "application/json" }, body: Buffer.from("{not json") });
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body).message).toMatch(/must be JSON/);
  });
});
