// Local fakes of the two AI clip services (issue 50) at their HTTP boundary, following their documented requests,
// answers and errors (decision 223 lists the sources):
//   Veo through the Gemini API: POST /v1beta/models/{model}:predictLongRunning (x-goog-api-key) -> { name };
//     GET /v1beta/{name} -> { name, done, response.generateVideoResponse.generatedSamples[].video.uri } or { done, error };
//     the video at .../files/{id}:download?alt=media, with the key. A wrong key: 400 API_KEY_INVALID.
//   Runway: POST /v1/image_to_video (Bearer key, X-Runway-Version) -> { id }; GET /v1/tasks/{id} ->
//     { id, status, output: [url] }; DELETE /v1/tasks/{id} -> 204. Output URLs need no key.
// The videos are real MP4s (a moving test pattern of the length asked for), made once per size and length.
import { execFile } from "node:child_process";
import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { FakeApi, type FakeRequest, type FakeResponse, type Route } from "./fake-api";
import { GoogleApiFake } from "./google-api";

const run = promisify(execFile);
/** Job names never repeat within a test run, as the real services' never do (the spend is recorded by job name). */
let jobs = 0;

class Videos {
  private readonly made = new Map<string, Buffer>();
  private tmp?: string;
  async of(width: number, height: number, seconds: number): Promise<Buffer> {
    const key = `${width}x${height}-${seconds}`;
    const known = this.made.get(key);
    if (known) return known;
    this.tmp ??= await fsp.mkdtemp(path.join(os.tmpdir(), "fake-ai-clips-"));
    const out = path.join(this.tmp, `${key}.mp4`);
    await run("/usr/bin/ffmpeg", [
      "-v", "error", "-y", "-f", "lavfi", "-i", `testsrc2=duration=${seconds}:size=${width}x${height}:rate=24`,
      "-f", "lavfi", "-i", `sine=frequency=440:duration=${seconds}`,
      "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-c:a", "aac", "-shortest", out,
    ]);
    const data = await fsp.readFile(out);
    this.made.set(key, data);
    return data;
  }
  async clear() {
    if (this.tmp) await fsp.rm(this.tmp, { recursive: true, force: true });
  }
}

/** The small sizes the fakes answer with (real services: 720p or 1080p), to keep tests fast. */
const SIZES = { "16:9": { width: 320, height: 180 }, "9:16": { width: 180, height: 320 } } as const;

type VeoOperation = { name: string; model: string; prompt: string; withImage: boolean; aspectRatio: "16:9" | "9:16"; seconds: number; polls: number };

export class FakeVeo extends GoogleApiFake {
  readonly operations = new Map<string, VeoOperation>();
  /** Status checks that answer done: false before an operation is done. */
  pendingPolls = 1;
  /** When set, operations end with an error instead of a video. */
  failWith?: string;
  private readonly videos = new Videos();

  private invalid(message: string): FakeResponse {
    return { status: 400, json: { error: { code: 400, message, status: "INVALID_ARGUMENT" } } };
  }

  reset(): this {
    this.operations.clear();
    return super.reset();
  }

  /** The generation requests (each one paid for). */
  get creates() {
    return this.requestsTo(/:predictLongRunning$/);
  }

  protected routes(): Route[] {
    return [
      {
        method: "POST",
        pattern: /^\/v1beta\/models\/(veo-[^/:]+):predictLongRunning$/,
        handle: (req, [model]) => {
          const body = req.json() as { instances?: { prompt?: string; image?: { bytesBase64Encoded?: string; mimeType?: string } }[]; parameters?: { aspectRatio?: string; durationSeconds?: number } };
          const instance = body.instances?.[0];
          if (!instance?.prompt?.trim()) return this.invalid("instances[0].prompt is required.");
          if (instance.image && (!instance.image.bytesBase64Encoded || !["image/png", "image/jpeg"].includes(instance.image.mimeType ?? ""))) {
            return this.invalid("instances[0].image needs bytesBase64Encoded and a mimeType of image/png or image/jpeg.");
          }
          const aspectRatio = body.parameters?.aspectRatio ?? "16:9";
          if (aspectRatio !== "16:9" && aspectRatio !== "9:16") return this.invalid(`aspectRatio ${aspectRatio} is not supported; use 16:9 or 9:16.`);
          const seconds = body.parameters?.durationSeconds ?? 8;
          if (![4, 6, 8].includes(seconds)) return this.invalid(`durationSeconds must be 4, 6 or 8, not ${seconds}.`);
          const name = `models/${model}/operations/op${++jobs}`;
          this.operations.set(name, { name, model: model!, prompt: instance.prompt, withImage: Boolean(instance.image), aspectRatio, seconds, polls: 0 });
          return { json: { name } };
        },
      },
      {
        method: "GET",
        pattern: /^\/v1beta\/(models\/[^/]+\/operations\/[^/]+)$/,
        handle: (_req, [name]) => {
          const op = this.operations.get(name!);
          if (!op) return { status: 404, json: { error: { code: 404, message: `Operation ${name} not found.`, status: "NOT_FOUND" } } };
          op.polls++;
          if (op.polls <= this.pendingPolls) return { json: { name: op.name, metadata: { "@type": "type.googleapis.com/google.ai.generativelanguage.v1beta.PredictLongRunningMetadata" } } };
          if (this.failWith) return { json: { name: op.name, done: true, error: { code: 3, message: this.failWith } } };
          const file = op.name.split("/").pop();
          return {
            json: {
              name: op.name,
              done: true,
              response: {
                "@type": "type.googleapis.com/google.ai.generativelanguage.v1beta.PredictLongRunningResponse",
                generateVideoResponse: { generatedSamples: [{ video: { uri: `${this.url}/v1beta/files/${file}:download?alt=media` } }] },
              },
            },
          };
        },
      },
      {
        method: "GET",
        pattern: /^\/v1beta\/files\/([^/:]+):download$/,
        handle: async (_req, [file]) => {
          const op = [...this.operations.values()].find((o) => o.name.endsWith(`/${file}`));
          if (!op) return { status: 404, json: { error: { code: 404, message: "File not found.", status: "NOT_FOUND" } } };
          const { width, height } = SIZES[op.aspectRatio];
          return { body: await this.videos.of(width, height, op.seconds), contentType: "video/mp4" };
        },
      },
    ];
  }

  async stop() {
    await super.stop();
    await this.videos.clear();
  }
}

type RunwayTask = { id: string; model: string; promptText: string; ratio: string; seconds: number; polls: number; cancelled: boolean };
const RUNWAY_RATIOS: Record<string, { width: number; height: number }> = { "1280:720": SIZES["16:9"], "720:1280": SIZES["9:16"], "1104:832": { width: 276, height: 208 }, "832:1104": { width: 208, height: 276 }, "960:960": { width: 240, height: 240 }, "1584:672": { width: 396, height: 168 } };

export class FakeRunway extends FakeApi {
  readonly tasks = new Map<string, RunwayTask>();
  pendingPolls = 1;
  failWith?: string;
  private readonly videos = new Videos();

  protected keyOf(req: FakeRequest) {
    return (req.headers.authorization ?? "").replace(/^Bearer\s+/i, "") || undefined;
  }

  protected rejectedKey(): FakeResponse {
    return { status: 401, json: { error: "Invalid API key" } };
  }

  protected isPublic(req: FakeRequest) {
    return req.path.startsWith("/output/");
  }

  reset(): this {
    this.tasks.clear();
    return super.reset();
  }

  get creates() {
    return this.requestsTo(/^\/v1\/image_to_video$/);
  }

  protected routes(): Route[] {
    const versioned = (req: FakeRequest): FakeResponse | undefined =>
      req.headers["x-runway-version"] === "2024-11-06" ? undefined : { status: 400, json: { error: "The X-Runway-Version header is required (2024-11-06)." } };
    return [
      {
        method: "POST",
        pattern: /^\/v1\/image_to_video$/,
        handle: (req) => {
          const wrongVersion = versioned(req);
          if (wrongVersion) return wrongVersion;
          const body = req.json() as { model?: string; promptImage?: string; promptText?: string; ratio?: string; duration?: number };
          if (body.model !== "gen4_turbo") return { status: 400, json: { error: "Validation of body failed", issues: [{ path: ["model"], message: "Invalid enum value" }] } };
          if (!body.promptImage || !/^(https:\/\/|data:image\/(png|jpeg|webp);base64,)/.test(body.promptImage)) {
            return { status: 400, json: { error: "Validation of body failed", issues: [{ path: ["promptImage"], message: "An HTTPS URL or a data URI of an image is required" }] } };
          }
          if ((body.promptText ?? "").length > 1000) return { status: 400, json: { error: "Validation of body failed", issues: [{ path: ["promptText"], message: "At most 1000 characters" }] } };
          if (!body.ratio || !RUNWAY_RATIOS[body.ratio]) return { status: 400, json: { error: "Validation of body failed", issues: [{ path: ["ratio"], message: "Invalid enum value" }] } };
          const seconds = body.duration ?? 10;
          if (seconds !== 5 && seconds !== 10) return { status: 400, json: { error: "Validation of body failed", issues: [{ path: ["duration"], message: "Must be 5 or 10" }] } };
          const id = `${String(++jobs).padStart(8, "0")}-task-runway`;
          this.tasks.set(id, { id, model: body.model, promptText: body.promptText ?? "", ratio: body.ratio, seconds, polls: 0, cancelled: false });
          return { json: { id } };
        },
      },
      {
        method: "GET",
        pattern: /^\/v1\/tasks\/([^/]+)$/,
        handle: (req, [id]) => {
          const wrongVersion = versioned(req);
          if (wrongVersion) return wrongVersion;
          const task = this.tasks.get(id!);
          if (!task || task.cancelled) return { status: 404, json: { error: "Task not found" } };
          task.polls++;
          const createdAt = "2026-11-28T21:00:00.000Z";
          if (task.polls <= this.pendingPolls) return { json: { id, status: task.polls === 1 ? "PENDING" : "RUNNING", createdAt, progress: 0.5 } };
          if (this.failWith) return { json: { id, status: "FAILED", createdAt, failure: this.failWith, failureCode: "SAFETY.INPUT.TEXT" } };
          return { json: { id, status: "SUCCEEDED", createdAt, output: [`${this.url}/output/${id}.mp4?_jwt=signed`] } };
        },
      },
      {
        method: "DELETE",
        pattern: /^\/v1\/tasks\/([^/]+)$/,
        handle: (_req, [id]) => {
          const task = this.tasks.get(id!);
          if (!task) return { status: 404, json: { error: "Task not found" } };
          task.cancelled = true;
          return { status: 204, body: "" };
        },
      },
      {
        method: "GET",
        pattern: /^\/output\/([^/]+)\.mp4$/,
        handle: async (_req, [id]) => {
          const task = this.tasks.get(id!);
          if (!task) return { status: 404, body: "expired" };
          const { width, height } = RUNWAY_RATIOS[task.ratio]!;
          return { body: await this.videos.of(width, height, task.seconds), contentType: "video/mp4" };
        },
      },
    ];
  }

  async stop() {
    await super.stop();
    await this.videos.clear();
  }
}

/**
 * Both fakes listening, with the keys the tests save as a creator's, and the app pointed at them (GEMINI_BASE_URL,
 * RUNWAY_BASE_URL): called before the app's environment is first read (in vi.hoisted).
 */
export async function startClipFakes(): Promise<{ veo: FakeVeo; runway: FakeRunway }> {
  const veo = new FakeVeo("gemini-key-for-veo-0123456789");
  const runway = new FakeRunway("runway-key-0123456789");
  process.env.GEMINI_BASE_URL = await veo.start();
  process.env.RUNWAY_BASE_URL = await runway.start();
  return { veo, runway };
}
