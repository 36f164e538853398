// /api/v1's channel schemas (issue 52): the answers the channel routes send, checked before they leave, and their
// path parameters. The request bodies are app/lib/channel.ts's schemas, the ones the pages use.
import { z } from "zod";
import { AddIdeasSchema, CHANNEL_PLATFORMS, ChannelInputSchema, ChannelInstagramOptionsSchema, ChannelPatchSchema, ChannelTikTokOptionsSchema, IdeaPatchSchema } from "~/lib/channel";

const id = (what: string) => z.string().min(1).max(64).meta({ description: `The ${what}'s id.` });
export const ChannelIdParamsSchema = z.object({ id: id("channel") });
export const IdeaIdParamsSchema = z.object({ id: id("channel"), ideaId: id("idea") });
export const CalendarQuerySchema = z
  .object({
    weeks: z.coerce.number({ message: "weeks must be a number from 1 to 8." }).int().min(1, "weeks must be at least 1.").max(8, "weeks must be at most 8.").optional(),
    weeksBack: z.coerce.number({ message: "weeksBack must be a number from 0 to 4." }).int().min(0).max(4, "weeksBack must be at most 4.").optional(),
  })
  .strict();

export const ChannelSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    timeZone: z.string(),
    kit: z.record(z.string(), z.unknown()).describe("The brand kit, every default filled in."),
    schedule: z.array(z.object({ day: z.int().min(1).max(7), time: z.string() })),
    approval: z.enum(["manual", "auto"]),
    leadHours: z.int(),
    paused: z.boolean(),
    accounts: z.array(
      z.object({
        platform: z.string().describe(`One of ${CHANNEL_PLATFORMS.join(", ")}.`),
        connectionRef: z.string().describe("YouTube: your YouTube connection; TikTok, Instagram: the account's id (GET /api/v1/social-accounts)."),
        label: z.string(),
        connected: z.boolean(),
        tiktok: ChannelTikTokOptionsSchema.optional().describe("How the channel posts to this TikTok account."),
        instagram: ChannelInstagramOptionsSchema.optional().describe("How the channel posts to this Instagram account."),
      }),
    ),
    counts: z.object({ queued: z.int(), making: z.int(), ready: z.int(), approved: z.int(), published: z.int(), failed: z.int() }),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: "Channel" });
export const ChannelListSchema = z.object({ channels: z.array(ChannelSchema) });

export const IdeaSchema = z
  .object({
    id: z.string(),
    title: z.string(),
    topic: z.string(),
    source: z.string(),
    position: z.int(),
    status: z.enum(["queued", "making", "ready", "approved", "publishing", "published", "failed"]),
    slotAt: z.iso.datetime().nullable(),
    slotLabel: z.string().nullable(),
    stateLabel: z.string().describe("The state in words, with what it waits for."),
    late: z.boolean(),
    lateMinutes: z.int().nullable(),
    videoId: z.string().nullable().describe("Its video (GET /api/v1/videos/{videoId})."),
    videoPage: z.string().nullable(),
    youtubeUrl: z.string().nullable(),
    error: z.string().nullable(),
    posts: z
      .array(
        z.object({
          platform: z.enum(CHANNEL_PLATFORMS),
          account: z.string(),
          state: z.enum(["posting", "processing", "published", "sent_to_inbox", "failed", "cancelled", "not_posted"]),
          label: z.string().describe("The state in words, with the reason when it failed or was not posted."),
          link: z.string().nullable().describe("The post's link once the platform gives one."),
          reason: z.string().nullable().describe("Why this platform refused or failed it; the other platforms went ahead."),
        }),
      )
      .describe("Where it was posted at its slot: one entry per platform account (decision 271)."),
  })
  .meta({ id: "ChannelIdea" });
export const IdeaListSchema = z.object({ ideas: z.array(IdeaSchema) });

export const CalendarSchema = z
  .object({
    channel: ChannelSchema,
    weeks: z.array(
      z.object({
        weekOf: z.iso.datetime(),
        label: z.string(),
        slots: z.array(z.object({ at: z.iso.datetime(), label: z.string(), past: z.boolean(), idea: IdeaSchema.nullable(), stateLabel: z.string() })),
      }),
    ),
    unscheduled: z.array(IdeaSchema),
  })
  .meta({ id: "ChannelCalendar" });
export const ChannelDeletedSchema = z.object({ id: z.string(), deleted: z.literal(true) });

/** The channel paths of the OpenAPI document (app/server/api-v1.server.ts spreads them in), with its error answers. */
export function channelOpenApiPaths(errors: Record<string, unknown>, writeErrors: Record<string, unknown>) {
  const json = (schema: z.ZodType) => ({ "application/json": { schema } });
  const channelPath = { path: ChannelIdParamsSchema };
  return {
    "/api/v1/channels": {
      get: { operationId: "listChannels", summary: "Your channels", responses: { "200": { description: "Channels.", content: json(ChannelListSchema) }, ...errors } },
      post: {
        operationId: "createChannel",
        summary: "Make a channel: brand kit, weekly schedule, platform accounts",
        requestBody: { required: true, content: json(ChannelInputSchema.meta({ id: "CreateChannel" })) },
        responses: { "201": { description: "Made; its workflow runs the schedule.", content: json(ChannelSchema) }, ...writeErrors },
      },
    },
    "/api/v1/channels/{id}": {
      get: { operationId: "getChannel", summary: "One channel", requestParams: channelPath, responses: { "200": { description: "The channel.", content: json(ChannelSchema) }, ...errors } },
      patch: {
        operationId: "updateChannel",
        summary: "Change a channel's kit, schedule, rule or accounts",
        requestParams: channelPath,
        requestBody: { required: true, content: json(ChannelPatchSchema.meta({ id: "UpdateChannel" })) },
        responses: { "200": { description: "Changed.", content: json(ChannelSchema) }, ...writeErrors },
      },
      delete: { operationId: "deleteChannel", summary: "Remove a channel and its queue (its videos stay)", requestParams: channelPath, responses: { "200": { description: "Removed.", content: json(ChannelDeletedSchema) }, ...writeErrors } },
    },
    "/api/v1/channels/{id}/ideas": {
      get: { operationId: "listChannelIdeas", summary: "The channel's queue of ideas, each with its slot and state", requestParams: channelPath, responses: { "200": { description: "Ideas.", content: json(IdeaListSchema) }, ...errors } },
      post: {
        operationId: "addChannelIdeas",
        summary: "Add ideas (objects, pasted lines or CSV) to the end of the queue",
        requestParams: channelPath,
        requestBody: { required: true, content: json(AddIdeasSchema.meta({ id: "AddChannelIdeas" })) },
        responses: { "201": { description: "Added; they take the next free slots.", content: json(IdeaListSchema) }, ...writeErrors },
      },
    },
    "/api/v1/channels/{id}/ideas/{ideaId}": {
      patch: {
        operationId: "changeChannelIdea",
        summary: "Approve a made video, move it to another slot, or retry a failed one",
        requestParams: { path: IdeaIdParamsSchema },
        requestBody: { required: true, content: json(IdeaPatchSchema.meta({ id: "ChangeChannelIdea" })) },
        responses: { "200": { description: "Changed.", content: json(IdeaSchema) }, ...writeErrors },
      },
      delete: { operationId: "deleteChannelIdea", summary: "Remove an idea from the queue", requestParams: { path: IdeaIdParamsSchema }, responses: { "200": { description: "Removed.", content: json(ChannelDeletedSchema) }, ...writeErrors } },
    },
    "/api/v1/channels/{id}/calendar": {
      get: {
        operationId: "getChannelCalendar",
        summary: "The channel's weeks: each slot's video and its state in words",
        requestParams: { path: ChannelIdParamsSchema, query: CalendarQuerySchema },
        responses: { "200": { description: "The calendar.", content: json(CalendarSchema) }, ...errors },
      },
    },
  };
}
