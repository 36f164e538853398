// /api/v1's channel schemas (issue 52): the answers the channel routes send, checked before they leave, and their
// path parameters. The request bodies are app/lib/channel.ts's schemas, the ones the pages use.
import { z } from "zod";
import { CHANNEL_PLATFORMS } from "~/lib/channel";

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
    accounts: z.array(z.object({ platform: z.string().describe(`One of ${CHANNEL_PLATFORMS.join(", ")} (more platforms to come).`), connectionRef: z.string(), label: z.string(), connected: z.boolean() })),
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
