// Reelsmith as an MCP server (issue 32, decision 162), on the official @modelcontextprotocol/sdk: one tool per
// intent (make a video, read its status, list videos, list voices and languages, publish), each calling the same
// service functions as /api/v1 with the same zod schemas as input schemas. Served over Streamable HTTP at /mcp,
// stateless (a server per request, JSON answers), so any web process answers any call. The caller is resolved
// by requireApiCaller before the server exists: every tool acts as that user, with that user's checks.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { completeMakeVideoOptions, MakeVideoOptionsFields, PublishVideoSchema } from "~/lib/make-video-options";
import { MAX_JSON_BYTES, readBodyCapped } from "./api.server";
import type { ApiRequestCaller } from "./api-token-gate.server";
import { API_V1_VERSION, ListVideosQuerySchema, VIDEO_STATUSES } from "./api-v1.server";
import { getMakeVideo, listMakeVideos, listVoicesAndLanguages, publishMakeVideo, requireOwnRun, startMakeVideo, toApiVideo } from "./make-video.server";
import { MCP_CHANNEL_TOOLS, registerChannelTools } from "./mcp-channels.server";
import { OUTPUT_TOOLS, registerOutputTools } from "./mcp-outputs.server";
import { CLIP_TOOLS, registerClipTools } from "./mcp-clips.server";
import { problem, toProblem } from "./problem.server";
import { listPlatformConnections } from "./platforms/platform-connections.server";
import { publishToPlatforms } from "./platforms/platform-posts.server";
import { PublishBodySchema } from "./platforms/platform-posts-schemas";
import { createRateLimiters, RATE_LIMITS } from "./host/web-app.server";

export const MCP_TOOLS = ["make_video", "get_video_status", "list_videos", "list_voices", "publish_video", "list_social_accounts", "post_video", ...MCP_CHANNEL_TOOLS, ...OUTPUT_TOOLS, ...CLIP_TOOLS] as const;

const VideoIdInput = { id: z.string().min(1).max(64).describe("The video's id, as make_video or list_videos gave it.") };

/** A tool's answer: the JSON as text (every client shows it) and as structured content. */
function answer(data: unknown): CallToolResult {
  return { content: [{ type: "text", text: JSON.stringify(data, null, 2) }], structuredContent: data as Record<string, unknown> };
}

/** A thrown service error (a { message } JSON response, a problem) as a tool error in words: what the model reads. */
async function failure(thrown: unknown): Promise<CallToolResult> {
  const response = await toProblem(thrown);
  const body = (await response.json().catch(() => ({}))) as { status?: number; detail?: string; field?: string | null };
  const where = body.field ? ` (${body.field})` : "";
  return { isError: true, content: [{ type: "text", text: `${body.status ?? response.status}: ${body.detail ?? "The request failed."}${where}` }] };
}

async function run(task: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await task();
  } catch (thrown) {
    return failure(thrown);
  }
}

/**
 * The generation limit (per user, counted in PostgreSQL with the same key as /api/v1/videos and the pages' generate
 * routes, so every door shares one count): /mcp's gate sees one JSON-RPC request, not which tool it calls, so the
 * tools that make something count themselves.
 */
let consumeLimit: ReturnType<typeof createRateLimiters> | undefined;
async function generationRefusal(userId: string): Promise<CallToolResult | null> {
  consumeLimit ??= createRateLimiters();
  const wait = await consumeLimit("generation", userId);
  if (wait === null) return null;
  return { isError: true, content: [{ type: "text", text: `429: ${RATE_LIMITS.generation.message} (retry after ${wait} s)` }] };
}

const READ_ONLY_REFUSAL = "This API token is read-only: it may read videos but not make or publish them. Make a token with full access under Settings > API tokens.";

/** The MCP server for one caller: its tools act as `caller.userId`; a read-only token's writes are refused. */
export function createReelsmithMcpServer(caller: ApiRequestCaller): McpServer {
  const server = new McpServer({ name: "reelsmith", version: API_V1_VERSION });
  const mayWrite = () => caller.scope === "full";

  server.registerTool(
    "make_video",
    {
      title: "Make a video",
      description:
        "Make a whole video from a title and a topic (or your own script): script, scenes, pictures, voiceovers, optional music, render and thumbnail, and optionally a YouTube upload. Returns at once with the video's id; poll get_video_status until status is completed (a minute or more for a short video).",
      inputSchema: MakeVideoOptionsFields,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    },
    (args) =>
      run(async () => {
        if (!mayWrite()) return { isError: true, content: [{ type: "text", text: `403: ${READ_ONLY_REFUSAL}` }] };
        const tooMany = await generationRefusal(caller.userId);
        if (tooMany) return tooMany;
        // the SDK has checked the arguments with MakeVideoOptionsFields; the defaults that follow from them remain
        const options = completeMakeVideoOptions(args);
        const started = await startMakeVideo(caller.userId, options, { makeCurrent: false });
        return answer(toApiVideo(await getMakeVideo(caller.userId, started.id)));
      }),
  );

  server.registerTool(
    "get_video_status",
    {
      title: "Read a video's status",
      description:
        "Where a video is: status (running, completed, failed, cancelled), stage in words, percent, every stage with its own status and percent (several run at once), remainingSeconds for the whole video, progressLine (the run on one line), the error in words if it failed, and links to the MP4 and thumbnail (download them from /api/v1 with the same token).",
      inputSchema: VideoIdInput,
      annotations: { readOnlyHint: true },
    },
    ({ id }) => run(async () => answer(toApiVideo(await getMakeVideo(caller.userId, id)))),
  );

  server.registerTool(
    "list_videos",
    {
      title: "List videos",
      description: "Your videos, newest first (at most `limit`, 20 by default); `before` is the last id of the previous page.",
      inputSchema: { limit: ListVideosQuerySchema.shape.limit, before: ListVideosQuerySchema.shape.before, status: z.enum(VIDEO_STATUSES).optional() },
      annotations: { readOnlyHint: true },
    },
    (args) =>
      run(async () => {
        const page = await listMakeVideos(caller.userId, args);
        return answer({ videos: page.videos.map(toApiVideo), next: page.next });
      }),
  );

  server.registerTool(
    "list_voices",
    {
      title: "List voices and languages",
      description: "The voices a video may use (your voice service's, or the offline voices that ship with Reelsmith) and the narration languages: pass a voice's id as `voice` and a language's code as `language` to make_video.",
      inputSchema: { language: z.string().max(20).optional().describe("Only voices of this language code (e.g. en, fr).") },
      annotations: { readOnlyHint: true },
    },
    ({ language }) =>
      run(async () => {
        const all = await listVoicesAndLanguages(caller.userId);
        const code = language?.trim().toLowerCase();
        return answer(code ? { ...all, voices: all.voices.filter((v) => !v.language || v.language.toLowerCase().startsWith(code.split("-")[0]!)) } : all);
      }),
  );

  server.registerTool(
    "publish_video",
    {
      title: "Publish a video to YouTube",
      description: "Upload a finished video to YouTube, now or scheduled with publishAt (Premium; YouTube connected on the Upload page). Poll get_video_status for links.youtube.",
      inputSchema: z.object({ ...VideoIdInput, ...PublishVideoSchema.shape }).strict(),
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    },
    ({ id, ...publish }) =>
      run(async () => {
        if (!mayWrite()) return { isError: true, content: [{ type: "text", text: `403: ${READ_ONLY_REFUSAL}` }] };
        const tooMany = await generationRefusal(caller.userId);
        if (tooMany) return tooMany;
        return answer(toApiVideo(await publishMakeVideo(caller.userId, id, publish)));
      }),
  );

  // TikTok and Instagram Reels (issue 49)
  server.registerTool(
    "list_social_accounts",
    {
      title: "List TikTok and Instagram accounts",
      description: "The TikTok and Instagram accounts connected in Settings: pass an account's id as connectionId to post_video. needsReconnect: the platform refused its tokens.",
      inputSchema: {},
      annotations: { readOnlyHint: true },
    },
    () => run(async () => answer({ accounts: await listPlatformConnections(caller.userId) })),
  );

  server.registerTool(
    "post_video",
    {
      title: "Post a video to TikTok and Instagram Reels",
      description:
        "Post a finished video to a list of connected TikTok and Instagram accounts, now or at scheduledAt each. Each platform's rules are checked first: refused entries come back in `refused` with the reasons. TikTok entries need tiktok.privacyLevel (one the account offers; SELF_ONLY while the server's TikTok app is unaudited) and tiktok.consent true (TikTok's Music Usage Confirmation).",
      inputSchema: z.object({ ...VideoIdInput, posts: PublishBodySchema.shape.posts }).strict(),
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    },
    ({ id, posts }) =>
      run(async () => {
        if (!mayWrite()) return { isError: true, content: [{ type: "text", text: `403: ${READ_ONLY_REFUSAL}` }] };
        const video = await requireOwnRun(caller.userId, id);
        if (!video.projectId) return { isError: true, content: [{ type: "text", text: "409: The video has no project yet: post it once its status is completed." }] };
        return answer(await publishToPlatforms(caller.userId, { posts }, video.projectId));
      }),
  );

  registerChannelTools(server, { userId: caller.userId, mayWrite, run, answer, readOnlyRefusal: READ_ONLY_REFUSAL });
  registerOutputTools(server, caller, { answer, run, refuseWrite: async () => (mayWrite() ? generationRefusal(caller.userId) : { isError: true, content: [{ type: "text", text: `403: ${READ_ONLY_REFUSAL}` }] }) });
  registerClipTools(server, caller, {
    answer,
    run,
    refuseWrite: async () => (mayWrite() ? generationRefusal(caller.userId) : { isError: true, content: [{ type: "text", text: `403: ${READ_ONLY_REFUSAL}` }] }),
    refuseSetting: () => (mayWrite() ? null : { isError: true, content: [{ type: "text", text: `403: ${READ_ONLY_REFUSAL}` }] }),
  });
  return server;
}

/** One MCP request (a POST of JSON-RPC), answered by a fresh stateless server for `caller`. Bodies over 1 MB: 413. */
export async function handleMcpRequest(request: Request, caller: ApiRequestCaller): Promise<Response> {
  const raw = (await readBodyCapped(request, MAX_JSON_BYTES)).toString("utf8");
  let parsedBody: unknown;
  try {
    parsedBody = JSON.parse(raw);
  } catch {
    return problem(400, "The request body must be a JSON-RPC message (Content-Type: application/json).");
  }
  const server = createReelsmithMcpServer(caller);
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  try {
    return await transport.handleRequest(request, { parsedBody });
  } finally {
    // the answer is complete (JSON mode): nothing of this server is used again
    void server.close();
  }
}
