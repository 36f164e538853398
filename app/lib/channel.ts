// Channels (issue 52, decisions 234-236): a creator's brand kit, weekly posting schedule and platform accounts, as
// zod schemas every door shares (the pages, /api/v1), and the pure rules around them: the slots a weekly schedule
// makes in the channel's time zone, and the make-video options an idea gets from the kit. No I/O here.
import { z } from "zod";
import { HexColorSchema, type VideoBrand } from "./brand";
import { CAPTION_FONTS, CAPTION_POSITIONS, CAPTION_PRESETS, CAPTION_SIZES } from "./caption-style";
import { PRIVACY_STATUSES, YOUTUBE_CATEGORY_IDS } from "./constants";
import { captionFor, type Platform } from "./platform-rules";
import { IMAGE_SOURCES } from "./image-source";
import { DEFAULT_LANGUAGE, LanguageSchema } from "./languages";
import { MakeVideoOptionsSchema, type MakeVideoOptions } from "./make-video-options";
import { VoiceIdSchema } from "./project-voice";
import { VOICE_SPEED, VoiceSpeedSchema } from "./voice-speed";
import { DURATION_RULES, RESOLUTIONS } from "./video-format";

/**
 * Platforms a channel posts to (decisions 234, 271): YouTube through its make-video run's upload stage, TikTok and
 * Instagram Reels through one platform post per account (the publish step's PlatformPost and its workflow).
 */
export const CHANNEL_PLATFORMS = ["youtube", "tiktok", "instagram"] as const;
export type ChannelPlatform = (typeof CHANNEL_PLATFORMS)[number];

/**
 * The states of an idea that will still be posted, so must hold a slot ahead: a schedule change frees their slots
 * ahead and the channel's step gives a slot to any of them without one (decision 251).
 */
export const UNFINISHED_IDEA_STATES = ["queued", "making", "ready", "approved"] as const;

/**
 * channelVideosPerHour: videos the channels of one creator may start in an hour of channel time (decision 251), over
 * and above the run limit (CONCURRENCY_LIMITS.pipelineRunsPerUser): a schedule full of slots, or a queue of ideas
 * all due at once, cannot start more than this; the rest start as the hour frees.
 */
export const CHANNEL_LIMITS = { channelVideosPerHour: 12, channels: 20, slotsPerWeek: 21, ideasPerChannel: 500, ideasPerImport: 200, hashtags: 15 } as const;
export const WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"] as const;

const CAPTION_LOOKS = CAPTION_PRESETS.filter((p) => p !== "none") as Exclude<(typeof CAPTION_PRESETS)[number], "none">[];

export function isTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

const HashtagSchema = z
  .string()
  .trim()
  .transform((t) => (t.startsWith("#") ? t : `#${t}`))
  .refine((t) => /^#[\p{L}\p{N}_]{1,50}$/u.test(t), "A hashtag is one word of letters, digits or _ (at most 50).");

/** The brand kit: what every video the channel makes gets (decision 234 lists which stage reads each field). */
export const ChannelKitSchema = z
  .object({
    format: z.enum(RESOLUTIONS, { message: `format must be one of ${RESOLUTIONS.join(", ")}.` }).default("9:16"),
    /** Seconds; absent: the format's default. */
    duration: z.coerce.number({ message: "duration must be a number of seconds." }).int("duration must be whole seconds.").optional(),
    language: LanguageSchema.default(DEFAULT_LANGUAGE),
    voice: VoiceIdSchema.nullish().transform((v) => v ?? null),
    voiceSpeed: VoiceSpeedSchema.default(VOICE_SPEED.default),
    captions: z.boolean({ message: "captions must be true or false." }).default(true),
    captionStyle: z.enum(CAPTION_LOOKS, { message: `captionStyle must be one of ${CAPTION_LOOKS.join(", ")}.` }).default("boxed"),
    captionPosition: z.enum(CAPTION_POSITIONS).default("bottom"),
    captionSize: z.enum(CAPTION_SIZES).default("medium"),
    imageSource: z.enum(IMAGE_SOURCES).optional(),
    music: z.boolean({ message: "music must be true or false." }).default(false),
    /** The music's mood ("calm lo-fi", "epic orchestral"): the music stage's prompt says it. */
    musicMood: z.string().trim().max(120, "musicMood must be at most 120 characters.").optional().transform((v) => v || undefined),
    musicVolume: z.coerce.number().int().min(0, "musicVolume must be at least 0.").max(100, "musicVolume must be at most 100.").default(5),
    /** Put under every video's description. */
    descriptionFooter: z.string().max(1000, "descriptionFooter must be at most 1000 characters.").optional().transform((v) => (v?.trim() ? v.trim() : undefined)),
    hashtags: z.array(HashtagSchema).max(CHANNEL_LIMITS.hashtags, `At most ${CHANNEL_LIMITS.hashtags} hashtags.`).default([]),
    privacyStatus: z.enum(PRIVACY_STATUSES).default("public"),
    youtubeCategoryId: z.enum(YOUTUBE_CATEGORY_IDS).default("22"),
    /** What the channel is about: the model suggesting ideas reads it (decision 250). */
    topic: z.string().trim().max(500, "topic must be at most 500 characters.").optional().transform((v) => v || undefined),
    // ── drawn into the video (decision 249) ──
    /** An image the creator uploaded (a MediaFile id): on the intro and outro cards, and the watermark when `watermark`. */
    logoFileId: z.string().trim().min(1).max(64).optional(),
    watermark: z.boolean({ message: "watermark must be true or false." }).default(false),
    brandColor: HexColorSchema.default("#111827"),
    brandTextColor: HexColorSchema.default("#FFFFFF"),
    captionFont: z.enum(CAPTION_FONTS, { message: `captionFont must be one of ${CAPTION_FONTS.join(", ")}.` }).default("sans"),
    captionColor: HexColorSchema.default("#FFFFFF"),
    /** The intro card's text; no intro when absent. */
    introText: z.string().trim().max(120, "introText must be at most 120 characters.").optional(),
    /** The outro card's text; no outro when absent. */
    outroText: z.string().trim().max(120, "outroText must be at most 120 characters.").optional(),
    cardSeconds: z.coerce.number().min(1, "cardSeconds must be at least 1.").max(5, "cardSeconds must be at most 5.").default(2),
  })
  .strict()
  .superRefine((k, ctx) => {
    if (k.duration !== undefined) {
      const { min, max } = DURATION_RULES[k.format];
      if (k.duration < min || k.duration > max) ctx.addIssue({ code: "custom", path: ["duration"], message: `duration must be between ${min} and ${max} for this format.` });
    }
  });
export type ChannelKit = z.output<typeof ChannelKitSchema>;

const TIME = /^([01]\d|2[0-3]):([0-5]\d)$/;
export const ScheduleSlotSchema = z
  .object({
    day: z.int("day must be 1 (Monday) to 7 (Sunday).").min(1, "day must be 1 (Monday) to 7 (Sunday).").max(7, "day must be 1 (Monday) to 7 (Sunday)."),
    time: z.string().regex(TIME, 'time must be "HH:MM" (24-hour).'),
  })
  .strict();
export type ScheduleSlot = z.output<typeof ScheduleSlotSchema>;

export const ScheduleSchema = z
  .array(ScheduleSlotSchema)
  .max(CHANNEL_LIMITS.slotsPerWeek, `At most ${CHANNEL_LIMITS.slotsPerWeek} slots a week.`)
  .superRefine((slots, ctx) => {
    const seen = new Set<string>();
    slots.forEach((s, i) => {
      const key = `${s.day} ${s.time}`;
      if (seen.has(key)) ctx.addIssue({ code: "custom", path: [i], message: `${WEEKDAYS[s.day - 1]} ${s.time} is listed twice.` });
      seen.add(key);
    });
  })
  .transform((slots) => [...slots].sort((a, b) => a.day - b.day || a.time.localeCompare(b.time)));

const TIKTOK_PRIVACY = ["PUBLIC_TO_EVERYONE", "MUTUAL_FOLLOW_FRIENDS", "FOLLOWER_OF_CREATOR", "SELF_ONLY"] as const;

/**
 * How a channel posts to a TikTok account, chosen once for all its posts (TikTok's content-sharing guidelines,
 * decision 216): who can see it (no default: the creator picks one of the account's levels), comments, duets and
 * stitches (off unless turned on), and the creator's agreement to the Music Usage Confirmation.
 */
export const ChannelTikTokOptionsSchema = z
  .object({
    /** "direct": posted to the profile; "inbox": a draft the creator finishes in the TikTok app */
    mode: z.enum(["direct", "inbox"], { message: 'tiktok.mode must be "direct" or "inbox".' }).default("direct"),
    privacyLevel: z.enum(TIKTOK_PRIVACY, { message: `tiktok.privacyLevel must be one of ${TIKTOK_PRIVACY.join(", ")}.` }).nullable().default(null),
    allowComment: z.boolean().default(false),
    allowDuet: z.boolean().default(false),
    allowStitch: z.boolean().default(false),
    consent: z.literal(true, { message: "Agree to TikTok's Music Usage Confirmation to post." }),
  })
  .strict();
export type ChannelTikTokOptions = z.output<typeof ChannelTikTokOptionsSchema>;

export const ChannelInstagramOptionsSchema = z
  .object({
    /** the Reel shows in the profile's feed too (share_to_feed) */
    shareToFeed: z.boolean().default(true),
  })
  .strict();
export type ChannelInstagramOptions = z.output<typeof ChannelInstagramOptionsSchema>;

export const ChannelAccountSchema = z
  .object({
    platform: z.enum(CHANNEL_PLATFORMS, { message: `platform must be one of ${CHANNEL_PLATFORMS.join(", ")}.` }),
    /** The connection's id (YouTube: the account's YouTube connection; TikTok, Instagram: the PlatformConnection); absent: the account's only connection of that platform. */
    connectionRef: z.string().trim().max(64).optional(),
    tiktok: ChannelTikTokOptionsSchema.optional(),
    instagram: ChannelInstagramOptionsSchema.optional(),
  })
  .strict()
  .superRefine((a, ctx) => {
    if (a.platform === "tiktok" && !a.tiktok) ctx.addIssue({ code: "custom", path: ["tiktok"], message: "A TikTok account needs its options: privacyLevel and consent." });
    if (a.platform === "tiktok" && a.tiktok?.mode === "direct" && !a.tiktok.privacyLevel) ctx.addIssue({ code: "custom", path: ["tiktok", "privacyLevel"], message: "Choose who can see the channel's TikTok posts." });
    if (a.platform !== "tiktok" && a.tiktok) ctx.addIssue({ code: "custom", path: ["tiktok"], message: "tiktok options are for a TikTok account." });
    if (a.platform !== "instagram" && a.instagram) ctx.addIssue({ code: "custom", path: ["instagram"], message: "instagram options are for an Instagram account." });
  });
export type ChannelAccountInput = z.output<typeof ChannelAccountSchema>;

/** An account an idea's post could not start on (its connection gone or revoked, YouTube refused), kept on the idea. */
export type ChannelPostProblem = { platform: ChannelPlatform; connectionRef: string; reason: string };

/** The stored options of a channel's TikTok or Instagram account (ChannelAccount.postOptions). */
export type ChannelPostOptions = ChannelTikTokOptions | ChannelInstagramOptions;

/** A channel account's options as a PlatformPost's (the shape the publish step stores and the post workflow reads). */
export function platformPostOptions(platform: Platform, stored: unknown): Record<string, unknown> {
  if (platform === "tiktok") {
    const o = ChannelTikTokOptionsSchema.parse({ consent: true, ...(stored as object) });
    return { mode: o.mode, privacyLevel: o.privacyLevel, disableComment: !o.allowComment, disableDuet: !o.allowDuet, disableStitch: !o.allowStitch };
  }
  const o = ChannelInstagramOptionsSchema.parse(stored ?? {});
  return { shareToFeed: o.shareToFeed, thumbOffsetMs: null };
}

/** A channel post's caption: the idea's title, the kit's footer, then the kit's hashtags that fit the platform's limit. */
export function channelCaption(platform: Platform, title: string, kit: Pick<ChannelKit, "descriptionFooter" | "hashtags">): string {
  const text = [title.trim(), kit.descriptionFooter?.trim()].filter(Boolean).join("\n\n");
  return captionFor(platform, text.slice(0, 2000), kit.hashtags);
}

const channelFields = {
  name: z.string({ message: "name is required." }).trim().min(1, "name is required.").max(80, "name must be at most 80 characters."),
  timeZone: z.string().trim().max(64).refine(isTimeZone, "timeZone must be an IANA time zone, e.g. Europe/Paris."),
  kit: ChannelKitSchema,
  schedule: ScheduleSchema,
  approval: z.enum(["manual", "auto"], { message: 'approval must be "manual" or "auto".' }),
  /** How many hours before its slot a video is started (1 to 168). */
  leadHours: z.int("leadHours must be whole hours.").min(1, "leadHours must be at least 1.").max(168, "leadHours must be at most 168."),
  accounts: z.array(ChannelAccountSchema).max(10),
  paused: z.boolean(),
};

export const ChannelInputSchema = z
  .object({
    ...channelFields,
    timeZone: channelFields.timeZone.default("UTC"),
    kit: ChannelKitSchema.default(ChannelKitSchema.parse({})),
    schedule: ScheduleSchema.default([]),
    approval: channelFields.approval.default("manual"),
    leadHours: channelFields.leadHours.default(24),
    accounts: channelFields.accounts.default([]),
    paused: channelFields.paused.default(false),
  })
  .strict();
export type ChannelInput = z.output<typeof ChannelInputSchema>;
/** A change: only the fields sent change (no defaults filled in). */
export const ChannelPatchSchema = z.object(channelFields).partial().strict();

/** The most ideas one suggestion asks the model for. */
export const IDEAS_PER_SUGGESTION = 20;

export const IdeaInputSchema = z
  .object({
    title: z.string({ message: "title is required." }).trim().min(1, "title is required.").max(200, "title must be at most 200 characters."),
    topic: z.string().trim().max(2000, "topic must be at most 2000 characters.").optional(),
  })
  .strict();

export const AddIdeasSchema = z
  .object({
    /** Ideas as objects. */
    ideas: z.array(IdeaInputSchema).max(CHANNEL_LIMITS.ideasPerImport, `At most ${CHANNEL_LIMITS.ideasPerImport} ideas at once.`).optional(),
    /** Pasted text: one idea a line, "title | topic" or just a title. */
    text: z.string().max(100_000, "text must be at most 100,000 characters.").optional(),
    /** CSV with a header row holding title (and optionally topic). */
    csv: z.string().max(1_000_000, "csv must be at most 1,000,000 characters.").optional(),
    /** Ideas the creator's text model suggests from the channel's topic and its past videos (decision 250). */
    suggest: z
      .object({
        count: z.int("suggest.count must be a whole number.").min(1, "suggest.count must be at least 1.").max(IDEAS_PER_SUGGESTION, `suggest.count must be at most ${IDEAS_PER_SUGGESTION}.`).default(5),
      })
      .strict()
      .optional(),
  })
  .strict()
  .refine((b) => [b.ideas, b.text, b.csv, b.suggest].filter((v) => v !== undefined).length === 1, { message: "Send one of ideas, text, csv or suggest.", path: ["ideas"] });

/** Pasted lines as ideas: "title | topic" or "title"; blank lines skipped. */
export function ideasFromText(text: string): { title: string; topic?: string }[] {
  return text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean)
    .map((line) => {
      const [title, ...rest] = line.split("|");
      const topic = rest.join("|").trim();
      return { title: title!.trim().slice(0, 200), ...(topic ? { topic: topic.slice(0, 2000) } : {}) };
    })
    .filter((i) => i.title);
}

export const IdeaPatchSchema = z
  .object({
    action: z.enum(["approve", "move", "retry"], { message: 'action must be "approve", "move" or "retry".' }),
    /** For move: the slot (ISO instant, one of the channel's slots) to move the idea to; an idea there swaps places. */
    slotAt: z.iso.datetime({ offset: true, message: "slotAt must be an ISO date and time." }).optional(),
  })
  .strict()
  .refine((p) => p.action !== "move" || p.slotAt, { message: "move needs slotAt.", path: ["slotAt"] });

// ── Time ────────────────────────────────────────────────────────────────────────────────────────────
const partsFormatters = new Map<string, Intl.DateTimeFormat>();
function wallParts(utcMs: number, tz: string) {
  let f = partsFormatters.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", { timeZone: tz, hourCycle: "h23", year: "numeric", month: "numeric", day: "numeric", hour: "numeric", minute: "numeric", second: "numeric", weekday: "short" });
    partsFormatters.set(tz, f);
  }
  const p = Object.fromEntries(f.formatToParts(new Date(utcMs)).map((x) => [x.type, x.value]));
  return { year: +p.year!, month: +p.month!, day: +p.day!, hour: +p.hour!, minute: +p.minute!, second: +p.second!, weekday: ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"].indexOf(p.weekday!) + 1 };
}

/** The zone's offset from UTC at `utcMs`, in ms (Paris in winter: +3,600,000). */
function offsetAt(utcMs: number, tz: string): number {
  const w = wallParts(utcMs, tz);
  return Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second) - Math.floor(utcMs / 1000) * 1000;
}

/** The instant a wall-clock time in `tz` names (a time skipped by a DST jump moves forward by the jump). */
export function zonedTimeToUtc(year: number, month: number, day: number, hour: number, minute: number, tz: string): Date {
  const wall = Date.UTC(year, month - 1, day, hour, minute);
  let utc = wall - offsetAt(wall, tz);
  const second = offsetAt(utc, tz);
  if (wall - second !== utc) utc = wall - second;
  return new Date(utc);
}

/** Every slot of the weekly schedule in [fromMs, toMs), as UTC instants, earliest first. */
export function slotsBetween(schedule: ScheduleSlot[], tz: string, fromMs: number, toMs: number): Date[] {
  if (!schedule.length || toMs <= fromMs) return [];
  const out: Date[] = [];
  const start = wallParts(fromMs - 36 * 3600_000, tz);
  // walk calendar days in the zone from a day and a half before `from` (zones reach +14 h) to past `to`
  for (let d = 0; ; d++) {
    const date = new Date(Date.UTC(start.year, start.month - 1, start.day + d));
    const y = date.getUTCFullYear();
    const m = date.getUTCMonth() + 1;
    const day = date.getUTCDate();
    const weekday = ((date.getUTCDay() + 6) % 7) + 1;
    if (Date.UTC(y, m - 1, day) - 50 * 3600_000 > toMs) break;
    for (const slot of schedule) {
      if (slot.day !== weekday) continue;
      const [hh, mm] = slot.time.split(":").map(Number) as [number, number];
      const at = zonedTimeToUtc(y, m, day, hh, mm, tz);
      if (at.getTime() >= fromMs && at.getTime() < toMs) out.push(at);
    }
  }
  return out.sort((a, b) => a.getTime() - b.getTime());
}

/** A slot as the channel's people read it: "Tue 3 Dec, 18:00" in the channel's zone. */
export function formatSlot(at: Date | string, tz: string): string {
  return new Intl.DateTimeFormat("en-GB", { timeZone: tz, weekday: "short", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit", hourCycle: "h23" }).format(new Date(at));
}

/** Monday 00:00 (in the zone) of the week holding `atMs`, as an instant. */
export function weekStartOf(atMs: number, tz: string): Date {
  const w = wallParts(atMs, tz);
  const monday = new Date(Date.UTC(w.year, w.month - 1, w.day - (w.weekday - 1)));
  return zonedTimeToUtc(monday.getUTCFullYear(), monday.getUTCMonth() + 1, monday.getUTCDate(), 0, 0, tz);
}

// ── Kit to video ────────────────────────────────────────────────────────────────────────────────────
/** The options an idea's video is made with: the idea's words, everything else from the kit. */
export function optionsFromKit(kit: ChannelKit, idea: { title: string; topic: string }): MakeVideoOptions {
  return MakeVideoOptionsSchema.parse({
    title: idea.title,
    topic: idea.topic || idea.title,
    format: kit.format,
    ...(kit.duration !== undefined ? { duration: kit.duration } : {}),
    language: kit.language,
    ...(kit.voice ? { voice: kit.voice } : {}),
    voiceSpeed: kit.voiceSpeed,
    captions: kit.captions,
    captionStyle: kit.captionStyle,
    captionPosition: kit.captionPosition,
    captionSize: kit.captionSize,
    ...(kit.imageSource ? { imageSource: kit.imageSource } : {}),
    music: kit.music,
    ...(kit.music && kit.musicMood ? { musicPrompt: `${kit.musicMood} background music for a video about ${(idea.topic || idea.title).slice(0, 300)}`.slice(0, 500) } : {}),
    ...(kit.music ? { musicVolume: kit.musicVolume } : {}),
    privacyStatus: kit.privacyStatus,
    youtubeCategoryId: kit.youtubeCategoryId,
    ...(kit.descriptionFooter ? { descriptionFooter: kit.descriptionFooter } : {}),
    ...(kit.hashtags.length ? { hashtags: kit.hashtags } : {}),
  });
}

/** What a channel's video shows of its kit and was made with, stored on its project for the render (decision 249). */
export function brandFromKit(kit: ChannelKit): VideoBrand {
  return {
    color: kit.brandColor,
    textColor: kit.brandTextColor,
    captionFont: kit.captionFont,
    captionColor: kit.captionColor,
    ...(kit.logoFileId ? { logoFileId: kit.logoFileId } : {}),
    watermark: kit.watermark && !!kit.logoFileId,
    ...(kit.introText !== undefined ? { intro: kit.introText } : {}),
    ...(kit.outroText !== undefined ? { outro: kit.outroText } : {}),
    cardSeconds: kit.cardSeconds,
    voice: kit.voice,
    musicMood: kit.music ? (kit.musicMood ?? null) : null,
  };
}

/** A description with the channel's footer and hashtags under it, within YouTube's 5,000 characters. */
export function withFooter(description: string, footer: string | undefined, hashtags: string[] | undefined): string {
  const tail = [footer?.trim(), hashtags?.length ? hashtags.join(" ") : ""].filter(Boolean).join("\n\n");
  if (!tail) return description.slice(0, 5000);
  const room = 5000 - tail.length - 2;
  return `${description.slice(0, Math.max(0, room)).trimEnd()}\n\n${tail}`.replace(/[<>]/g, "").slice(0, 5000);
}
