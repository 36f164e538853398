// The MCP tools for one video, many outputs (issue 51): suggest Shorts from a video's scenes, make a Short, make a
// version in another language. Each calls the same service functions as /api/v1/projects/{id}/shorts and
// /versions, with the same zod schemas as input schemas; making counts against the generation limit and needs a
// token with full access, like make_video.
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { ShortRequestSchema } from "~/lib/short-runs";
import type { ApiRequestCaller } from "./api-token-gate.server";
import { ProjectIdParamsSchema, ShortOptionsQuerySchema } from "./api-v1-outputs.server";
import { createShort, getShortOptions } from "./shorts.server";
import { createVersion, getVersionOptions, VersionRequestSchema } from "./versions.server";
import { getProjectStatus, publishProject, PublishProjectSchema, renderProject, RenderProjectSchema } from "./project-publish.server";

export const OUTPUT_TOOLS = ["suggest_shorts", "make_short", "make_version", "get_project_status", "render_project", "publish_project"] as const;

const ProjectIdInput = {
  projectId: ProjectIdParamsSchema.shape.id.describe("The video's projectId, as make_video, get_video_status or list_videos gave it."),
};

/** The MCP server's own helpers (app/server/mcp.server.ts), handed in so the two modules do not load each other. */
export type McpToolHelpers = {
  /** the JSON as text and as structured content */
  answer: (data: unknown) => CallToolResult;
  /** a thrown service error as a tool error in words ("404: ...") */
  run: (task: () => Promise<CallToolResult>) => Promise<CallToolResult>;
  /** refusals before anything is made: a read-only token (403), the generation limit (429); null to go on */
  refuseWrite: () => Promise<CallToolResult | null>;
};

export function registerOutputTools(server: McpServer, caller: ApiRequestCaller, { answer, run, refuseWrite }: McpToolHelpers): void {
  server.registerTool(
    "suggest_shorts",
    {
      title: "Suggest Shorts from a video",
      description:
        "A finished video's scenes (0-based, with their words and seconds) and suggested runs of them for Shorts, each at most maxSeconds with the end card, with a hook line and the reason it was picked (suggestedBy: the creator's text model, or the rule-based pick offline); also the languages make_version can translate this video into. Pass a run's fromScene and toScene to make_short.",
      inputSchema: { ...ProjectIdInput, maxSeconds: ShortOptionsQuerySchema.shape.maxSeconds.unwrap().optional() },
      annotations: { readOnlyHint: true },
    },
    ({ projectId, maxSeconds }) =>
      run(async () => {
        const [shorts, versions] = await Promise.all([getShortOptions(caller.userId, projectId, maxSeconds), getVersionOptions(caller.userId, projectId)]);
        return answer({ ...shorts, versionLanguages: versions.targets, translator: versions.translator });
      }),
  );

  server.registerTool(
    "make_short",
    {
      title: "Make a Short from a video",
      description:
        "Cut a run of a video's scenes (fromScene to toScene, both included) into a 9:16 Short: each picture reframed around its subject, the hook line on the first picture, the same voiceovers and captions, an end card pointing to the full video, the same music. Returns the Short's own projectId, linked to its source; it is made in a few seconds.",
      inputSchema: { ...ProjectIdInput, ...ShortRequestSchema.shape },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    ({ projectId, ...args }) =>
      run(async () => {
        // the run's order (toScene not before fromScene) is the schema's refinement, which a shape cannot carry
        const request = ShortRequestSchema.safeParse(args);
        if (!request.success) {
          const issue = request.error.issues[0]!;
          return { isError: true, content: [{ type: "text", text: `400: ${issue.message} (${issue.path.join(".")})` }] };
        }
        const refused = await refuseWrite();
        if (refused) return refused;
        return answer(await createShort(caller.userId, projectId, request.data));
      }),
  );

  server.registerTool(
    "make_version",
    {
      title: "Make a version in another language",
      description:
        "Translate a video into another language (machine translation by the creator's text model when they saved its key, offline by Apertium otherwise: offer the creator a proofreading step) as a new project linked to it: the script, every scene's words and the title translated, the same pictures, music and format, and new voiceovers in that language (started at once, or left for after proofreading with voiceovers: false). suggest_shorts lists the languages this server can translate the video into.",
      inputSchema: { ...ProjectIdInput, ...VersionRequestSchema.shape },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    ({ projectId, ...request }) =>
      run(async () => {
        const refused = await refuseWrite();
        if (refused) return refused;
        return answer(await createVersion(caller.userId, projectId, request));
      }),
  );

  // a Short or a version is a project of its own: rendered, followed and published by its projectId (decision 247)
  server.registerTool(
    "get_project_status",
    {
      title: "Read a project's status",
      description: "Where a project (a Short or a version from make_short or make_version, or any video's projectId) is: its render (active, stage, percent, error), its newest finished video, and its YouTube upload (status, url).",
      inputSchema: ProjectIdInput,
      annotations: { readOnlyHint: true },
    },
    ({ projectId }) => run(async () => answer(await getProjectStatus(caller.userId, projectId))),
  );

  server.registerTool(
    "render_project",
    {
      title: "Render a Short or a version",
      description:
        "Render a project by its projectId (a Short or a version from make_short or make_version) with the same renderers as any video; a version's voiceovers must be made first. Returns at once; poll get_project_status until render.active is false and video is set.",
      inputSchema: { ...ProjectIdInput, ...RenderProjectSchema.shape },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    ({ projectId, quality }) =>
      run(async () => {
        const refused = await refuseWrite();
        if (refused) return refused;
        return answer(await renderProject(caller.userId, projectId, quality));
      }),
  );

  server.registerTool(
    "publish_project",
    {
      title: "Publish a Short or a version to YouTube",
      description:
        "Upload a project's newest finished render to YouTube (Premium; YouTube connected on the Upload page): title (default: the project's), description, tags, privacyStatus (default private), publishAt to schedule. Poll get_project_status for youtube.url.",
      inputSchema: { ...ProjectIdInput, ...PublishProjectSchema.shape },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    },
    ({ projectId, ...args }) =>
      run(async () => {
        // the defaults and refinements (publishAt in the future) are the schema's: parsed again here
        const body = PublishProjectSchema.safeParse(args);
        if (!body.success) {
          const issue = body.error.issues[0]!;
          return { isError: true, content: [{ type: "text", text: `400: ${issue.message} (${issue.path.join(".")})` }] };
        }
        const refused = await refuseWrite();
        if (refused) return refused;
        return answer(await publishProject(caller.userId, projectId, body.data));
      }),
  );
}
