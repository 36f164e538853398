// Uploads are streamed to storage, never whole in memory (issue 47, decision 199). A real 500 MB clip (ffmpeg's raw
// 4K video in a QuickTime file, made as it is sent: it is never in this process's memory or on disk) is uploaded to
// the real web server (server.ts, the production build) with the clip limit raised to 600 MB; the web process's
// resident memory, read from /proc/<pid>/status through the upload, grows by less than 96 MB in all and by less than
// 32 MB over the last 370 MB sent (a body held whole would grow with it: the ramp at the start is code loaded and
// buffers filled once, which a busy CI machine's lazier garbage collection stretched past 64 MB), and the worker
// converts the stored clip and the scene shows it.
import { spawn } from "node:child_process";
import http from "node:http";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { prisma } from "~/core/db.server";
import { seedRenderableProject } from "../fixtures/render-project";
import { createTestUser, sessionCookieFor } from "../support/auth";
import { killAllWorkerProcesses, startWorkerProcess } from "../support/worker-process";
import { residentBytes, startWebProcess, type WebProcess } from "../support/web-process";

const MB = 1024 * 1024;
/** 32 frames of 3840x2160 UYVY 4:2:2 (16.6 MB each): 1.07 s of video, 531 MB. */
const FRAMES = 32;
const BOUNDARY = "ReelsmithMemoryTest";

let web: WebProcess;
let cookie: string;
let projectId: string;

/** POSTs a multipart body (cellIndex, then the file) whose file bytes come from `file`, chunked; the answer and bytes sent. */
function postStreamedUpload(file: NodeJS.ReadableStream, fileName: string, contentType: string, onSent?: (bytes: number) => void) {
  return new Promise<{ status: number; body: string; fileBytes: number }>((resolve, reject) => {
    const url = new URL(`${web.baseUrl}/api/scene-media`);
    const req = http.request({ host: url.hostname, port: url.port, path: url.pathname, method: "POST", headers: { Cookie: cookie, "Content-Type": `multipart/form-data; boundary=${BOUNDARY}`, "Transfer-Encoding": "chunked" } });
    let fileBytes = 0;
    req.on("response", (res) => {
      let body = "";
      res.on("data", (d) => (body += d));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body, fileBytes }));
    });
    req.on("error", reject);
    req.write(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="cellIndex"\r\n\r\n0\r\n--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: ${contentType}\r\n\r\n`);
    file.on("data", (chunk: Buffer) => {
      fileBytes += chunk.length;
      onSent?.(fileBytes);
      if (!req.write(chunk)) {
        file.pause();
        req.once("drain", () => file.resume());
      }
    });
    file.on("error", reject);
    file.on("end", () => req.end(`\r\n--${BOUNDARY}--\r\n`));
  });
}

beforeAll(async () => {
  const user = await createTestUser();
  cookie = await sessionCookieFor(user.id);
  const project = await seedRenderableProject({ userId: user.id, sceneSeconds: [2, 2], resolution: "shorts" });
  projectId = project.projectId;
  await prisma.user.update({ where: { id: user.id }, data: { currentProjectId: projectId } });
  [web] = await Promise.all([
    startWebProcess({ CLIP_UPLOAD_MAX_MB: "600" }),
    startWorkerProcess("all-stages", { taskQueue: process.env.TEMPORAL_TASK_QUEUE! }),
  ]);
}, 900_000);
afterAll(async () => {
  await web?.stop();
  // the worker process too: it is a process group of its own, which the test run's end does not reach
  await killAllWorkerProcesses();
  await prisma.$disconnect();
});

describe("a 500 MB clip uploaded to the web server", () => {
  it("is streamed to storage: the web process's memory grows by less than 96 MB, and not with the bytes sent; the clip is converted and shown", { timeout: 600_000 }, async () => {
    // the upload route's code is loaded and run once (a file that is not a clip: refused by its first bytes)
    const warm = await postStreamedUpload(Readable.from([Buffer.alloc(256 * 1024, 1)]), "x.mp4", "video/mp4");
    expect(warm.status).toBe(415);

    const before = residentBytes(web.pid);
    let peak = before;
    // the peak once the first 160 MB are sent: what the upload's ramp took
    let rampPeak = null as number | null;
    const sample = setInterval(() => (peak = Math.max(peak, residentBytes(web.pid))), 50);
    const onSent = (bytes: number) => {
      if (rampPeak === null && bytes >= 160 * MB) rampPeak = peak = Math.max(peak, residentBytes(web.pid));
    };
    const ffmpeg = spawn("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=3840x2160:rate=30", "-frames:v", String(FRAMES), "-c:v", "rawvideo", "-pix_fmt", "uyvy422", "-f", "mov", "-movflags", "frag_keyframe+empty_moov", "pipe:1"], { stdio: ["ignore", "pipe", "inherit"] });
    const answer = await postStreamedUpload(ffmpeg.stdout, "big.mov", "video/quicktime", onSent).finally(() => clearInterval(sample));
    peak = Math.max(peak, residentBytes(web.pid));

    const grew = peak - before;
    const afterRamp = peak - rampPeak!;
    console.log(
      `500 MB clip: ${(answer.fileBytes / MB).toFixed(0)} MB sent; web RSS ${(before / MB).toFixed(0)} MB before, ${(rampPeak! / MB).toFixed(0)} MB at 160 MB sent, peak ${(peak / MB).toFixed(0)} MB (grew ${(grew / MB).toFixed(1)} MB, ${(afterRamp / MB).toFixed(1)} MB after 160 MB sent)`,
    );
    expect(answer.status, answer.body).toBe(200);
    expect(answer.fileBytes).toBeGreaterThan(500 * MB);
    expect(rampPeak).not.toBeNull();
    expect(grew).toBeLessThan(96 * MB);
    expect(afterRamp).toBeLessThan(32 * MB);

    // the worker converted it: the scene shows an H.264 clip at the project's size, and the raw upload is gone
    const { clipUrl } = JSON.parse(answer.body) as { clipUrl: string };
    expect(clipUrl).toMatch(/^\/api\/media\//);
    const cell = await prisma.storyboardCell.findFirstOrThrow({ where: { cellIndex: 0, storyboard: { projectId } } });
    expect(cell.clipUrl).toBe(clipUrl);
    const clips = await prisma.mediaFile.findMany({ where: { projectId, kind: "clip" } });
    expect(clips.map((c) => c.mimeType)).toEqual(["video/mp4"]);
    expect(Number(clips[0]!.bytes)).toBeLessThan(50 * MB);
  });
});

