// The request and answer shapes of TikTok and Instagram posting (issue 49), shared by the pages' routes
// (/api/platforms/posts) and /api/v1 (whose OpenAPI document is generated from them). Pure zod: no I/O here.
import { z } from "zod";
import { TIKTOK_RULES } from "~/lib/platform-rules";

/**
 * How far ahead a post may be scheduled: an Instagram token lives 60 days and is renewed only when it is used, so a
 * post further out could find its account's token expired on the day (decision 240).
 */
export const MAX_SCHEDULE_DAYS = 50;

/** A time to post (null: now), in the future and at most MAX_SCHEDULE_DAYS ahead. */
const postTime = z.iso
  .datetime({ offset: true, error: "scheduledAt must be an ISO date and time, e.g. 2026-05-01T12:00:00Z." })
  .nullable()
  .refine((value) => !value || new Date(value).getTime() > Date.now(), "The scheduled time must be in the future.")
  .refine((value) => !value || new Date(value).getTime() <= Date.now() + MAX_SCHEDULE_DAYS * 24 * 3600 * 1000, `A post can be scheduled at most ${MAX_SCHEDULE_DAYS} days ahead.`);

const TikTokOptionsSchema = z
  .object({
    /** "direct": posted to the profile; "inbox": a draft the creator finishes in the TikTok app */
    mode: z.enum(["direct", "inbox"]).default("direct"),
    /** no default (TikTok's guidelines): the creator picks one of the account's options */
    privacyLevel: z.enum(["PUBLIC_TO_EVERYONE", "MUTUAL_FOLLOW_FRIENDS", "FOLLOWER_OF_CREATOR", "SELF_ONLY"]).nullable().default(null),
    allowComment: z.boolean().default(false),
    allowDuet: z.boolean().default(false),
    allowStitch: z.boolean().default(false),
    /** the creator agreed to TikTok's Music Usage Confirmation */
    consent: z.literal(true, { error: "Agree to TikTok's Music Usage Confirmation to post." }),
  })
  .strict();

const InstagramOptionsSchema = z
  .object({
    shareToFeed: z.boolean().default(true),
    /** the cover: the frame at this many milliseconds */
    coverAtMs: z.number().int().min(0).max(15 * 60 * 1000).nullable().default(null),
  })
  .strict();

const PostEntrySchema = z
  .object({
    platform: z.enum(["tiktok", "instagram"]),
    connectionId: z.string().trim().min(1).max(64),
    // each platform's limit is checked with its rules; this bounds the body
    // both platforms document 2,200 characters (TikTok in UTF-16 units, Instagram in characters): each platform's
    // own count is checked with its rules; this bounds the body by characters, so an emoji counts once
    caption: z
      .string()
      .refine((value) => [...value].length <= TIKTOK_RULES.captionChars, `A caption is at most ${TIKTOK_RULES.captionChars.toLocaleString("en-US")} characters.`)
      .default(""),
    scheduledAt: postTime.optional(),
    tiktok: TikTokOptionsSchema.optional(),
    instagram: InstagramOptionsSchema.optional(),
  })
  .strict()
  .superRefine((entry, ctx) => {
    if (entry.platform === "tiktok" && !entry.tiktok) ctx.addIssue({ code: "custom", path: ["tiktok"], message: "TikTok posts need their options (privacy, interactions, consent)." });
    if (entry.platform === "tiktok" && entry.tiktok?.mode === "direct" && !entry.tiktok.privacyLevel) {
      ctx.addIssue({ code: "custom", path: ["tiktok", "privacyLevel"], message: "Choose who can see the TikTok post." });
    }
  });

export const PublishBodySchema = z
  .object({
    videoPath: z.string().trim().max(500).optional(),
    posts: z.array(PostEntrySchema).min(1, "Choose at least one platform.").max(10, "At most 10 accounts at once."),
  })
  .strict();
export type PublishBody = z.output<typeof PublishBodySchema>;

/** Moving a scheduled post: the new time, or null to post it now (required: an empty body is refused, not "now"). */
export const RescheduleBodySchema = z.object({ scheduledAt: postTime }).strict();

export const PlatformPostSchema = z
  .object({
    id: z.string(),
    platform: z.enum(["tiktok", "instagram"]),
    accountName: z.string().nullable().describe("The account's TikTok nickname or Instagram username."),
    status: z.enum(["scheduled", "posting", "processing", "published", "sent_to_inbox", "failed", "cancelled"]),
    scheduledAt: z.iso.datetime().nullable(),
    caption: z.string(),
    bytesUploaded: z.number().int().min(0),
    totalBytes: z.number().int().min(0),
    publishedId: z.string().nullable().describe("TikTok's public post id (none for a private post) or the Instagram media id."),
    permalink: z.string().nullable().describe("The post's link once the platform gives one."),
    error: z.string().nullable().describe("Why it failed or was refused, in words."),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: "PlatformPost" });
export type PlatformPostView = z.infer<typeof PlatformPostSchema>;

export const PlatformPostListSchema = z.object({ posts: z.array(PlatformPostSchema) }).meta({ id: "PlatformPostList" });

export const PublishResultSchema = z
  .object({
    posts: z.array(PlatformPostSchema).describe("The posts started (or waiting for their time)."),
    refused: z
      .array(z.object({ platform: z.enum(["tiktok", "instagram"]), connectionId: z.string(), reasons: z.array(z.string()) }))
      .describe("The entries a platform's rules refuse, with the reasons; the others went ahead."),
  })
  .meta({ id: "PlatformPublishResult" });

export const SocialAccountListSchema = z
  .object({
    accounts: z.array(
      z.object({
        id: z.string().describe("Pass it as connectionId to POST /api/v1/videos/{id}/posts."),
        platform: z.enum(["tiktok", "instagram"]),
        accountName: z.string().nullable(),
        needsReconnect: z.boolean().describe("The platform refused the account's tokens: reconnect it in Settings."),
        connectedAt: z.iso.datetime(),
      }),
    ),
  })
  .meta({ id: "SocialAccountList" });
