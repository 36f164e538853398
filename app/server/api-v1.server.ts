// The versioned API's contract (issue 32, decision 161): every /api/v1 request and answer as a zod schema, the
// OpenAPI 3.1 document generated from those schemas (zod-openapi), and the helpers its routes share: a body
// read with a cap and parsed by a schema, answers checked against their schema before they leave, and any error
// as an RFC 9457 problem. The MCP tools (app/server/mcp.server.ts) take their input schemas from here too.
import "zod-openapi";
import { z } from "zod";
import { createDocument } from "zod-openapi";
import { MakeVideoOptionsSchema, PublishVideoSchema } from "~/lib/make-video-options";
import { MAKE_VIDEO_STAGE_LABELS, MAKE_VIDEO_STAGES } from "../../workflows/shared/make-video";
import { STAGE_STATUSES } from "~/lib/make-video-progress";
import { MAX_JSON_BYTES, readBodyCapped } from "./api.server";
import { ProjectStatusSchema, PublishProjectSchema, PublishStartedSchema, RenderProjectSchema, RenderStartedSchema } from "./project-publish.server";
import { AiClipEstimateQuerySchema, AiClipStatusSchema, AnimateScenesSchema, AnimateStartedSchema, SetTransitionsSchema, TransitionsSchema } from "./api-v1-clips.server";
import { CreateShortSchema, CreateVersionSchema, ProjectIdParamsSchema, ShortOptionsQuerySchema, ShortOptionsSchema, ShortSchema, VersionOptionsSchema, VersionSchema } from "./api-v1-outputs.server";
import { CreateBatchSchema } from "./batches.server";
import { PlatformPostListSchema, PublishBodySchema, PublishResultSchema, SocialAccountListSchema } from "./platforms/platform-posts-schemas";
import { channelOpenApiPaths } from "./channels-api.server";
import { problem, ProblemSchema, toProblem } from "./problem.server";

export const API_V1_VERSION = "1.0.0";
/** The largest body /api/v1 reads: a whole own script (100,000 characters, up to 4 bytes each) and its options. */
export const API_V1_MAX_BODY_BYTES = MAX_JSON_BYTES;

// ── Schemas ─────────────────────────────────────────────────────────────────────────────────────────
/** What POST /api/v1/videos takes: the make-video options (workflows/shared/make-video.ts), the pages' defaults. */
export const CreateVideoSchema = MakeVideoOptionsSchema.meta({
  id: "CreateVideo",
  description:
    "One whole video. `title` and one of `topic` (Reelsmith writes the script) or `script` (your own words, used as written) are required; every other field has the default the pages use.",
  example: { title: "Why octopuses have three hearts", topic: "Octopus biology for curious kids", format: "9:16", duration: 15, captions: true },
});

export const PublishSchema = PublishVideoSchema.meta({
  id: "Publish",
  description: "Upload the finished video to YouTube (Premium; YouTube connected on the Upload page). With publishAt it is uploaded private and YouTube publishes it then.",
  example: { publishAt: "2026-12-01T09:00:00Z" },
});

export const VIDEO_STATUSES = ["queued", "running", "completed", "failed", "cancelled"] as const;
const POSITIONS = ["queued", ...MAKE_VIDEO_STAGES, "done"] as const;

export const StageProgressSchema = z
  .object({
    stage: z.enum(MAKE_VIDEO_STAGES),
    label: z.string().describe(`The stage in words, e.g. "${MAKE_VIDEO_STAGE_LABELS.music}".`),
    status: z.enum(STAGE_STATUSES).describe("skipped: not part of this video (no music, no upload asked) or nothing left to do."),
    percent: z.int().min(0).max(100).describe("The stage's own progress: measured where its work reports it (script, pictures and voiceovers, render, upload), else from its time against its estimate."),
    count: z
      .object({ done: z.int().min(0), total: z.int().min(0), of: z.enum(["pictures", "voiceovers"]) })
      .nullable()
      .describe("What the scene media stage has made so far."),
    startedAt: z.iso.datetime().nullable(),
    endedAt: z.iso.datetime().nullable(),
    remainingSeconds: z.int().min(0).nullable().describe("Seconds from now until this stage should end (0 once it has); null once the video stopped."),
  })
  .meta({ id: "StageProgress" });

export const VideoSchema = z
  .object({
    id: z.string().describe("The video's id (a make-video run)."),
    projectId: z.string().nullable().describe("The project it makes; open it in the app at links.page."),
    title: z.string(),
    status: z.enum(VIDEO_STATUSES),
    stage: z.enum(POSITIONS).describe("Where the run is (or failed): the stages run in this order."),
    stageLabel: z.string().describe(`The stage in words, e.g. "${MAKE_VIDEO_STAGE_LABELS.render}".`),
    percent: z.int().min(0).max(100).describe("Progress over the whole run."),
    error: z.string().nullable().describe("What went wrong, in words, once it failed."),
    createdAt: z.iso.datetime(),
    startedAt: z.iso.datetime().nullable(),
    completedAt: z.iso.datetime().nullable(),
    links: z.object({
      video: z.string().nullable().describe("The MP4 for this token's owner: GET it with the same Authorization header."),
      thumbnail: z.string().nullable().describe("The thumbnail image (PNG or JPEG), the same way."),
      youtube: z.string().nullable().describe("The YouTube watch URL once uploaded."),
      metadata: z.string().nullable().describe("The project's details (title, topic, format, duration, script state) as JSON."),
      page: z.string().nullable().describe("The project's page in the app (for a signed-in browser)."),
    }),
    options: z.record(z.string(), z.unknown()).describe("The options it was made with, every default filled in."),
    stages: z.array(StageProgressSchema).describe("Every stage in the order they start; several run at once (music beside the script and scenes, the thumbnail beside the render)."),
    remainingSeconds: z
      .int()
      .min(0)
      .nullable()
      .describe("Seconds until the whole video is done, from what remains of every stage that runs or waits (measured pace where a stage reports one, else its estimate for this length and quality); 0 once completed, null once it failed or was cancelled."),
    progressLine: z.string().describe('The run on one line, e.g. "script done · pictures 12/20 · music running · render waiting · about 1 min 10 s left".'),
  })
  .meta({ id: "Video" });
export type ApiVideo = z.infer<typeof VideoSchema>;

export const VideoListSchema = z
  .object({
    videos: z.array(VideoSchema),
    next: z.string().nullable().describe("Pass as `before` for the next page; null on the last one."),
  })
  .meta({ id: "VideoList" });

export const ListVideosQuerySchema = z
  .object({
    limit: z.coerce.number({ message: "limit must be a number from 1 to 100." }).int("limit must be a whole number.").min(1, "limit must be at least 1.").max(100, "limit must be at most 100.").optional(),
    before: z.string().max(64, "before must be a video id.").optional(),
    status: z.enum(VIDEO_STATUSES, { message: `status must be one of ${VIDEO_STATUSES.join(", ")}.` }).optional(),
  })
  .strict();

export const VideoIdParamsSchema = z.object({
  id: z.string().min(1).max(64).meta({ description: "The video's id.", example: "cmc1a2b3c0000xyz" }),
});

export const BatchSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    concurrency: z.int().min(1).describe("Videos of this batch made at once."),
    createdAt: z.iso.datetime(),
    running: z.boolean().describe("True while a row is queued or being made."),
    counts: z.object({ total: z.int(), queued: z.int(), running: z.int(), completed: z.int(), failed: z.int(), cancelled: z.int() }),
    rows: z.array(VideoSchema.extend({ batchRow: z.int().describe("The row's position in the file (1 = the first).") })),
  })
  .meta({ id: "Batch" });
export const BatchListSchema = z.object({ batches: z.array(BatchSchema) }).meta({ id: "BatchList" });
export const BatchIdParamsSchema = z.object({ id: z.string().min(1).max(64).meta({ description: "The batch's id." }) });

export const DeletedSchema = z.object({ id: z.string(), deleted: z.literal(true) }).meta({ id: "Deleted" });

export const VoiceSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    category: z.string(),
    language: z.string().nullable(),
    gender: z.string().nullable(),
    accent: z.string().nullable(),
    neural: z.boolean().describe("An offline neural voice (a Piper voice file): the offline default for its language when installed."),
    licence: z.string().nullable().describe("The voice's licence as its files state it (offline neural voices); null when the voice service states none."),
  })
  .meta({ id: "Voice" });
export const VoicesSchema = z
  .object({
    source: z.string().describe('"offline" (the voices that ship with Reelsmith) or the voice service in use.'),
    voices: z.array(VoiceSchema),
    languages: z.array(z.object({ code: z.string(), name: z.string(), nativeName: z.string() })).describe("Narration languages a video may have."),
  })
  .meta({ id: "Voices" });


// ── Helpers for the routes ──────────────────────────────────────────────────────────────────────────
/**
 * The request's JSON body, read with a cap (413 past it) and parsed by `schema`; a bad body throws a 400 problem
 * naming the first bad field (dotted path) and listing every issue.
 */
export async function readApiBody<S extends z.ZodType>(request: Request, schema: S): Promise<z.output<S>> {
  const text = (await readBodyCapped(request, API_V1_MAX_BODY_BYTES)).toString("utf8");
  let body: unknown = {};
  if (text.trim()) {
    try {
      body = JSON.parse(text);
    } catch {
      throw problem(400, "The request body must be JSON (Content-Type: application/json).");
    }
  }
  return parseOr400(schema, body);
}

/** `input` parsed by `schema`, or a thrown 400 problem naming the first bad field. */
export function parseOr400<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const field = issue.path.length ? issue.path.join(".") : null;
  throw problem(400, field ? `${field}: ${issue.message}` : issue.message, { field });
}

/** A JSON answer, checked against its schema first (a mismatch is our bug: a 500, never a wrong shape). */
export function apiJson<S extends z.ZodType>(schema: S, data: z.input<S>, init: { status?: number } = {}): Response {
  const checked = schema.parse(data);
  return Response.json(checked, { status: init.status ?? 200, headers: { "Cache-Control": "no-store" } });
}

/** Runs a route's body; whatever it throws (the shared service functions' JSON errors included) answers as a problem. */
export async function asProblem(run: () => Promise<Response>): Promise<Response> {
  try {
    return await run();
  } catch (thrown) {
    return toProblem(thrown);
  }
}

// ── The OpenAPI document ────────────────────────────────────────────────────────────────────────────
const problemResponse = (description: string) => ({ description, content: { "application/problem+json": { schema: ProblemSchema } } });
const errors = {
  "400": problemResponse("The request is wrong: `field` names the first bad field."),
  "401": problemResponse("No token, or a malformed, unknown, revoked or expired one."),
  "403": problemResponse("A read-only token tried to write."),
  "404": problemResponse("No such video for this token's owner (another user's id looks the same)."),
  "429": problemResponse("Too many requests: wait `Retry-After` seconds."),
};
const writeErrors = {
  ...errors,
  "402": problemResponse("The owner's plan does not allow it (`limit` names which: projects, music, upload, quality)."),
  "409": problemResponse("The video is not in a state that allows it."),
  "413": problemResponse("The body is over 1 MB."),
};
const idParams = { path: VideoIdParamsSchema };

let document: ReturnType<typeof createDocument> | undefined;

/** The OpenAPI 3.1 document of /api/v1, generated from the schemas above (built once per process). */
export function openApiDocument(serverUrl: string) {
  document ??= createDocument({
    openapi: "3.1.0",
    info: {
      title: "Reelsmith API",
      version: API_V1_VERSION,
      description:
        "Make whole videos from a title and a topic (or your own script): script, storyboard, pictures and voiceovers, music, render, thumbnail and an optional YouTube upload, in one call. Authenticate with a personal API token (Settings > API tokens): `Authorization: Bearer rs_pat_...`. Errors are RFC 9457 problem details.",
    },
    servers: [{ url: "/" }],
    security: [{ bearerAuth: [] }],
    components: { securitySchemes: { bearerAuth: { type: "http", scheme: "bearer", description: "A personal API token (rs_pat_...)." } } },
    paths: {
      "/api/v1/videos": {
        post: {
          operationId: "createVideo",
          summary: "Make a whole video",
          description: "Creates the project and starts the make-video workflow; poll GET /api/v1/videos/{id} until status is completed or failed.",
          requestBody: { required: true, content: { "application/json": { schema: CreateVideoSchema } } },
          responses: { "201": { description: "Started.", content: { "application/json": { schema: VideoSchema } } }, ...writeErrors },
        },
        get: {
          operationId: "listVideos",
          summary: "List your videos, newest first",
          requestParams: { query: ListVideosQuerySchema },
          responses: { "200": { description: "A page of videos.", content: { "application/json": { schema: VideoListSchema } } }, ...errors },
        },
      },
      "/api/v1/videos/{id}": {
        get: {
          operationId: "getVideo",
          summary: "Read one video: stage, progress, errors in words, links",
          requestParams: idParams,
          responses: { "200": { description: "The video.", content: { "application/json": { schema: VideoSchema } } }, ...errors },
        },
        delete: {
          operationId: "deleteVideo",
          summary: "Delete a video and its project (stopping it if it runs)",
          requestParams: idParams,
          responses: { "200": { description: "Deleted.", content: { "application/json": { schema: DeletedSchema } } }, ...writeErrors },
        },
      },
      "/api/v1/videos/{id}/cancel": {
        post: {
          operationId: "cancelVideo",
          summary: "Stop a running video",
          requestParams: idParams,
          responses: { "200": { description: "Cancelled.", content: { "application/json": { schema: VideoSchema } } }, ...writeErrors },
        },
      },
      "/api/v1/videos/{id}/publish": {
        post: {
          operationId: "publishVideo",
          summary: "Upload a finished video to YouTube, now or at publishAt",
          requestParams: idParams,
          requestBody: { required: false, content: { "application/json": { schema: PublishSchema } } },
          responses: { "202": { description: "The upload started; the video's stage is upload until it is on YouTube (links.youtube).", content: { "application/json": { schema: VideoSchema } } }, ...writeErrors },
        },
      },
      "/api/v1/videos/{id}/posts": {
        get: {
          operationId: "listVideoPosts",
          summary: "The video's TikTok and Instagram posts and their states",
          requestParams: idParams,
          responses: { "200": { description: "The posts, newest first.", content: { "application/json": { schema: PlatformPostListSchema } } }, ...errors },
        },
        post: {
          operationId: "postVideo",
          summary: "Post a finished video to a list of TikTok and Instagram accounts, now or at a time each",
          description:
            "One entry per connected account (their ids from GET /api/v1/social-accounts; accounts are connected in the app's Settings). 409, naming the existing post's id, when the video already has a scheduled, running or published post on an account. Each platform's rules are checked first: an entry a platform would refuse is answered in `refused` with its reasons, the others start (422 when all are refused). TikTok entries need a privacy level the account offers and consent to TikTok's Music Usage Confirmation.",
          requestParams: idParams,
          requestBody: { required: true, content: { "application/json": { schema: PublishBodySchema.meta({ id: "PostVideo" }) } } },
          responses: {
            "201": { description: "Started (or waiting for their time).", content: { "application/json": { schema: PublishResultSchema } } },
            "422": problemResponse("Every entry is refused by its platform's rules."),
            ...writeErrors,
          },
        },
      },
      "/api/v1/videos/{id}/video": {
        get: {
          operationId: "downloadVideo",
          summary: "Download the MP4 (Range requests supported)",
          requestParams: idParams,
          responses: { "200": { description: "The MP4.", content: { "video/mp4": { schema: z.string().meta({ format: "binary" }) } } }, ...errors },
        },
      },
      "/api/v1/videos/{id}/thumbnail": {
        get: {
          operationId: "downloadThumbnail",
          summary: "Download the thumbnail",
          requestParams: idParams,
          responses: { "200": { description: "The image.", content: { "image/png": { schema: z.string().meta({ format: "binary" }) }, "image/jpeg": { schema: z.string().meta({ format: "binary" }) } } }, ...errors },
        },
      },
      "/api/v1/batches": {
        post: {
          operationId: "createBatch",
          summary: "Make a list of videos, a few at a time",
          description: "`rows` (CreateVideo objects) or `csv` (a header row of CreateVideo field names, one video per line). Every row is checked first; one batch runs at a time per account.",
          requestBody: { required: true, content: { "application/json": { schema: CreateBatchSchema.meta({ id: "CreateBatch" }) } } },
          responses: { "201": { description: "Started.", content: { "application/json": { schema: BatchSchema } } }, ...writeErrors },
        },
        get: {
          operationId: "listBatches",
          summary: "Your batches, newest first, with each row's stage",
          responses: { "200": { description: "Batches.", content: { "application/json": { schema: BatchListSchema } } }, ...errors },
        },
      },
      "/api/v1/batches/{id}": {
        get: {
          operationId: "getBatch",
          summary: "One batch with each row's stage",
          requestParams: { path: BatchIdParamsSchema },
          responses: { "200": { description: "The batch.", content: { "application/json": { schema: BatchSchema } } }, ...errors },
        },
      },
      "/api/v1/batches/{id}/retry": {
        post: {
          operationId: "retryBatch",
          summary: "Make the failed and cancelled rows again",
          requestParams: { path: BatchIdParamsSchema },
          responses: { "202": { description: "Retrying.", content: { "application/json": { schema: BatchSchema } } }, ...writeErrors },
        },
      },
      "/api/v1/social-accounts": {
        get: {
          operationId: "listSocialAccounts",
          summary: "Your TikTok and Instagram accounts (connected in Settings)",
          responses: { "200": { description: "The accounts.", content: { "application/json": { schema: SocialAccountListSchema } } }, ...errors },
        },
      },
      // one video, many outputs (issue 51)
      "/api/v1/projects/{id}/shorts": {
        get: {
          operationId: "shortOptions",
          summary: "A video's scenes and suggested runs for Shorts",
          requestParams: { path: ProjectIdParamsSchema, query: ShortOptionsQuerySchema },
          responses: { "200": { description: "The scenes and up to three suggested runs within maxSeconds.", content: { "application/json": { schema: ShortOptionsSchema } } }, ...errors },
        },
        post: {
          operationId: "createShort",
          summary: "Cut a Short from a run of the video's scenes",
          description: "A new 9:16 project linked to the video: pictures reframed around their subjects, the hook line, captions in the vertical safe zone and an end card. 422 when the run is longer than maxSeconds.",
          requestParams: { path: ProjectIdParamsSchema },
          requestBody: { required: true, content: { "application/json": { schema: CreateShortSchema } } },
          responses: { "201": { description: "Made.", content: { "application/json": { schema: ShortSchema } } }, ...writeErrors, "422": problemResponse("The run is longer than the Short may be.") },
        },
      },
      "/api/v1/projects/{id}/versions": {
        get: {
          operationId: "versionOptions",
          summary: "Languages a video can be translated into on this server",
          requestParams: { path: ProjectIdParamsSchema },
          responses: { "200": { description: "The target languages (offline machine translation).", content: { "application/json": { schema: VersionOptionsSchema } } }, ...errors },
        },
        post: {
          operationId: "createVersion",
          summary: "Make the video in another language",
          description: "A new project linked to the video: its script and scenes machine translated, the same pictures, voiceovers made in the new language (now, or after proofreading).",
          requestParams: { path: ProjectIdParamsSchema },
          requestBody: { required: true, content: { "application/json": { schema: CreateVersionSchema } } },
          responses: { "201": { description: "Made.", content: { "application/json": { schema: VersionSchema } } }, ...writeErrors, "422": problemResponse("This server cannot translate into that language offline.") },
        },
      },
      "/api/v1/projects/{id}": {
        get: {
          operationId: "projectStatus",
          summary: "A project's render, newest video and YouTube upload (a Short or a version by its projectId)",
          requestParams: { path: ProjectIdParamsSchema },
          responses: { "200": { description: "Where the project is.", content: { "application/json": { schema: ProjectStatusSchema } } }, ...errors },
        },
      },
      "/api/v1/projects/{id}/render": {
        post: {
          operationId: "renderProject",
          summary: "Render a project (a Short or a version) with the Render page's renderers",
          description: "409 while a render runs or a scene lacks its picture or voiceover; 402 for a quality above the plan.",
          requestParams: { path: ProjectIdParamsSchema },
          requestBody: { required: false, content: { "application/json": { schema: RenderProjectSchema } } },
          responses: { "202": { description: "Started.", content: { "application/json": { schema: RenderStartedSchema } } }, ...writeErrors },
        },
      },
      "/api/v1/projects/{id}/publish": {
        post: {
          operationId: "publishProject",
          summary: "Upload a project's newest finished render to YouTube (a Short or a version)",
          description: "Premium and a YouTube connection (Upload page) are needed; YouTube's limits are checked first (the Upload page's pre-flight checks).",
          requestParams: { path: ProjectIdParamsSchema },
          requestBody: { required: true, content: { "application/json": { schema: PublishProjectSchema } } },
          responses: { "202": { description: "Started.", content: { "application/json": { schema: PublishStartedSchema } } }, ...writeErrors },
        },
      },
      // moving scenes (issue 50, decision 244)
      "/api/v1/projects/{id}/ai-clips": {
        get: {
          operationId: "aiClipStatus",
          summary: "What animating a video's scenes would cost, and what its AI clips cost so far",
          requestParams: { path: ProjectIdParamsSchema, query: AiClipEstimateQuerySchema },
          responses: { "200": { description: "The estimate per scene and in all (list prices, dated), your limits, the spend, and whether a request runs.", content: { "application/json": { schema: AiClipStatusSchema } } }, ...errors },
        },
        post: {
          operationId: "animateScenes",
          summary: "Animate scenes with AI video clips, within a budget",
          description: "Starts making a clip for each scene named (Veo or Runway, with your own key). 402 with the figures, and nothing started, when the estimate is more than `budget` or would pass your monthly budget or cap per video (Settings). Poll GET for the spend; each clip shows on its scene when made.",
          requestParams: { path: ProjectIdParamsSchema },
          requestBody: { required: true, content: { "application/json": { schema: AnimateScenesSchema } } },
          responses: { "202": { description: "Started.", content: { "application/json": { schema: AnimateStartedSchema } } }, ...writeErrors, "409": problemResponse("Scenes of this video are already being animated.") },
        },
      },
      "/api/v1/projects/{id}/transitions": {
        get: {
          operationId: "getTransitions",
          summary: "A video's transitions between scenes",
          requestParams: { path: ProjectIdParamsSchema },
          responses: { "200": { description: "The video's transition, its length and each scene's own.", content: { "application/json": { schema: TransitionsSchema } } }, ...errors },
        },
        put: {
          operationId: "setTransitions",
          summary: "Choose the transitions between scenes",
          requestParams: { path: ProjectIdParamsSchema },
          requestBody: { required: true, content: { "application/json": { schema: SetTransitionsSchema } } },
          responses: { "200": { description: "Saved.", content: { "application/json": { schema: TransitionsSchema } } }, ...writeErrors },
        },
      },
      "/api/v1/voices": {
        get: {
          operationId: "listVoices",
          summary: "Voices and narration languages to choose from",
          responses: { "200": { description: "Voices for this token's owner (their voice service, or the offline voices).", content: { "application/json": { schema: VoicesSchema } } }, ...errors },
        },
      },
      ...channelOpenApiPaths(errors, writeErrors),
    },
  });
  return { ...document, servers: [{ url: serverUrl }] };
}
