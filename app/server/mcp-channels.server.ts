// The channel tools of Reelsmith's MCP server (issue 52): list channels, make one, read a channel's calendar, add
// ideas to its queue, approve or move a video. Each calls the same service functions as /api/v1/channels with the
// same zod schemas as input schemas; app/server/mcp.server.ts registers them for its caller.
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { AddIdeasSchema, ChannelInputSchema, IdeaPatchSchema } from "~/lib/channel";
import { addIdeas, changeIdea, channelCalendar, createChannel, listChannels } from "./channels.server";

export const MCP_CHANNEL_TOOLS = ["list_channels", "create_channel", "get_channel_calendar", "add_channel_ideas", "change_channel_idea"] as const;

type Tools = {
  userId: string;
  mayWrite: () => boolean;
  run: (task: () => Promise<CallToolResult>) => Promise<CallToolResult>;
  answer: (data: unknown) => CallToolResult;
  readOnlyRefusal: string;
};

const ChannelId = z.string().min(1).max(64).describe("The channel's id, as list_channels or create_channel gave it.");

export function registerChannelTools(server: McpServer, t: Tools): void {
  const refuse = (): CallToolResult => ({ isError: true, content: [{ type: "text", text: `403: ${t.readOnlyRefusal}` }] });

  server.registerTool(
    "list_channels",
    { title: "List channels", description: "Your channels: each with its brand kit, weekly schedule (in its time zone), platform accounts and how many ideas are queued, being made, waiting for approval and published.", inputSchema: {}, annotations: { readOnlyHint: true } },
    () => t.run(async () => t.answer({ channels: await listChannels(t.userId) })),
  );

  server.registerTool(
    "create_channel",
    {
      title: "Make a channel",
      description: "A channel with a brand kit (format, length, language, voice, captions, music mood, footer, hashtags), a weekly schedule ([{ day: 1-7, time: 'HH:MM' }] in timeZone) and platform accounts ([{ platform: 'youtube' }, { platform: 'tiktok', connectionRef, tiktok: { privacyLevel, consent: true } }, { platform: 'instagram', connectionRef }]; ids from list_social_accounts). Its ideas are made ahead and published at its slots.",
      inputSchema: ChannelInputSchema,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    },
    (args) => t.run(async () => (t.mayWrite() ? t.answer(await createChannel(t.userId, ChannelInputSchema.parse(args))) : refuse())),
  );

  server.registerTool(
    "get_channel_calendar",
    {
      title: "Read a channel's calendar",
      description: "The channel's weeks from this one: each slot's time, its video and the state in words (queued, being made, waiting for approval, published, late and what it waits for), and the ideas still waiting for a slot.",
      inputSchema: { id: ChannelId, weeks: z.number().int().min(1).max(8).optional().describe("How many weeks (4 by default).") },
      annotations: { readOnlyHint: true },
    },
    ({ id, weeks }) => t.run(async () => t.answer(await channelCalendar(t.userId, id, { weeks }))),
  );

  server.registerTool(
    "add_channel_ideas",
    {
      title: "Add ideas to a channel's queue",
      description: "Ideas as objects ({ title, topic }), pasted text (one a line: 'title | topic') or CSV (a header with title and topic). They take the channel's free slots in order.",
      inputSchema: z.object({ id: ChannelId, ...AddIdeasSchema.shape }).strict(),
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
    },
    ({ id, ...body }) => t.run(async () => (t.mayWrite() ? t.answer({ ideas: await addIdeas(t.userId, id, AddIdeasSchema.parse(body)) }) : refuse())),
  );

  server.registerTool(
    "change_channel_idea",
    {
      title: "Approve, move or retry a channel's video",
      description: "action approve: a made video may be published at its slot; move (with slotAt, one of the channel's slots ahead; a video there swaps places); retry: a failed one again.",
      inputSchema: z.object({ id: ChannelId, ideaId: z.string().min(1).max(64), ...IdeaPatchSchema.shape }).strict(),
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
    },
    ({ id, ideaId, ...patch }) => t.run(async () => (t.mayWrite() ? t.answer(await changeIdea(t.userId, id, ideaId, IdeaPatchSchema.parse(patch))) : refuse())),
  );
}
