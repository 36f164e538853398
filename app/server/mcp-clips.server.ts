// The MCP tools for moving scenes (issue 50, decision 244): what animating scenes would cost, animate them within a
// budget (refused with the figures before anything starts), and the transitions between scenes. Each calls the same
// service functions as /api/v1/projects/{id}/ai-clips and /transitions with the same zod schemas; animating needs a
// token with full access and counts against the generation limit, like make_video.
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { ApiRequestCaller } from "./api-token-gate.server";
import { AiClipEstimateQuerySchema, animateProjectScenes, AnimateScenesSchema, getAiClipStatus, SetTransitionsSchema, setProjectTransitions } from "./api-v1-clips.server";
import { ProjectIdParamsSchema } from "./api-v1-outputs.server";
import type { McpToolHelpers } from "./mcp-outputs.server";

export const CLIP_TOOLS = ["estimate_ai_clips", "animate_scenes", "set_transitions"] as const;

const ProjectIdInput = {
  projectId: ProjectIdParamsSchema.shape.id.describe("The video's projectId, as make_video, get_video_status or list_videos gave it."),
};

const badRequest = (issue: { message: string; path: PropertyKey[] }): CallToolResult => ({ isError: true, content: [{ type: "text", text: `400: ${issue.message} (${issue.path.join(".")})` }] });

export function registerClipTools(server: McpServer, caller: ApiRequestCaller, { answer, run, refuseWrite, refuseSetting }: McpToolHelpers & { refuseSetting: () => CallToolResult | null }): void {
  server.registerTool(
    "estimate_ai_clips",
    {
      title: "Estimate AI video clips for a video's scenes",
      description:
        "What animating scenes of a video with an AI video model would cost before anything is spent: per scene (the clip length asked for and its cost) and in all, at the service's dated list price; your monthly budget and cap per video; what this video's clips cost so far, per generation; whether a request is running. Call it before animate_scenes, and again to follow the spend.",
      inputSchema: { ...ProjectIdInput, ...AiClipEstimateQuerySchema.shape },
      annotations: { readOnlyHint: true },
    },
    ({ projectId, ...query }) =>
      run(async () => {
        const parsed = AiClipEstimateQuerySchema.safeParse(query);
        if (!parsed.success) return badRequest(parsed.error.issues[0]!);
        return answer(await getAiClipStatus(caller.userId, projectId, parsed.data));
      }),
  );

  server.registerTool(
    "animate_scenes",
    {
      title: "Animate scenes with AI video clips",
      description:
        "Make an AI video clip for each scene named (0-based cellIndexes), from its picture or its words, with Veo (your Gemini key) or Runway (your Runway key), within `budget` US dollars. When the estimate is more than the budget, or would pass your monthly budget or cap per video, nothing starts and the figures are said (402). Returns at once; each clip shows on its scene when made (a minute or more each); estimate_ai_clips shows the spend.",
      inputSchema: { ...ProjectIdInput, ...AnimateScenesSchema.shape },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    },
    ({ projectId, ...args }) =>
      run(async () => {
        const request = AnimateScenesSchema.safeParse(args);
        if (!request.success) return badRequest(request.error.issues[0]!);
        const refused = await refuseWrite();
        if (refused) return refused;
        return answer(await animateProjectScenes(caller.userId, projectId, request.data));
      }),
  );

  server.registerTool(
    "set_transitions",
    {
      title: "Choose a video's transitions between scenes",
      description:
        "Set the video's transition between scenes (none, fade, slide, zoom) and its length in seconds, and/or how particular scenes come in (perScene, by 0-based index, overriding the video's). Used by the next render and the storyboard's preview. Returns the transitions as saved.",
      inputSchema: { ...ProjectIdInput, ...SetTransitionsSchema.shape },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    ({ projectId, ...args }) =>
      run(async () => {
        const request = SetTransitionsSchema.safeParse(args);
        if (!request.success) return badRequest(request.error.issues[0]!);
        const refused = refuseSetting();
        if (refused) return refused;
        return answer(await setProjectTransitions(caller.userId, projectId, request.data));
      }),
  );
}
