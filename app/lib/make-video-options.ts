// The options of one whole video (issue 32, decision 161): what /create's "Make the whole video", the /api/v1
// routes and the MCP tools send, checked by one zod schema (the OpenAPI document and the MCP tools' input schemas
// are generated from it). The make-video workflow reads the parsed options from its VideoRun row.
import { z } from "zod";
import { CAPTION_POSITIONS, CAPTION_PRESETS, CAPTION_SIZES } from "./caption-style";
import { PRIVACY_STATUSES, YOUTUBE_CATEGORY_IDS } from "./constants";
import { IMAGE_SOURCES } from "./image-source";
import { DEFAULT_LANGUAGE, LanguageSchema } from "./languages";
import { VoiceIdSchema } from "./project-voice";
import { VOICE_SPEED, VoiceSpeedSchema } from "./voice-speed";
import { DURATION_RULES, RENDER_HEIGHTS, RESOLUTIONS, captionsByDefault, type ResolutionValue } from "./video-format";

// ── Options ─────────────────────────────────────────────────────────────────────────────────────────
/** The longest script a video may be made from (the creator's own words; the same bound as /create's). */
export const MAKE_VIDEO_SCRIPT_MAX_CHARS = 100_000;
/** Spoken words per second used to guess a video's length from the creator's own script (150 a minute, the spec's). */
const SCRIPT_WORDS_PER_SECOND = 2.5;

const CAPTION_LOOKS = CAPTION_PRESETS.filter((p) => p !== "none") as Exclude<(typeof CAPTION_PRESETS)[number], "none">[];

const trimmedOptional = (max: number, field: string) =>
  z
    .string({ message: `${field} must be text.` })
    .trim()
    .max(max, `${field} must be at most ${max} characters.`)
    .optional()
    .transform((v) => (v ? v : undefined));

/**
 * One video's options as a client sends them. Only `title` and one of `topic` or `script` are required; every other
 * field has the default the pages use (the spec's: 16:9 at 300 s, English with its default voice, captions as the
 * format has them, the account's image source, no music, the title on the thumbnail, no upload).
 */
export const MakeVideoOptionsFields = z
  .object({
    title: z.string({ message: "title is required." }).trim().min(1, "title is required.").max(200, "title must be at most 200 characters."),
    /** What the video is about: Reelsmith writes the script from it. */
    topic: trimmedOptional(5000, "topic"),
    /** The creator's own script, used word for word (scenes break at `---` lines or blank lines). */
    script: z
      .string({ message: "script must be text." })
      .max(MAKE_VIDEO_SCRIPT_MAX_CHARS, `script must be at most ${MAKE_VIDEO_SCRIPT_MAX_CHARS} characters.`)
      .optional()
      .transform((v) => (v && v.trim() ? v : undefined)),
    format: z.enum(RESOLUTIONS, { message: `format must be one of ${RESOLUTIONS.join(", ")}.` }).default("16:9"),
    /** Seconds; absent: the format's default, or the script's spoken length when a script is given. */
    duration: z.coerce.number({ message: "duration must be a number of seconds." }).int("duration must be whole seconds.").optional(),
    language: LanguageSchema.default(DEFAULT_LANGUAGE),
    /** A voice id from the voice list; absent or empty: the language's default voice. */
    voice: VoiceIdSchema.optional().transform((v) => v ?? null),
    voiceSpeed: VoiceSpeedSchema.default(VOICE_SPEED.default),
    /** Burned-in captions; absent: on for 9:16, off for 16:9. */
    captions: z.boolean({ message: "captions must be true or false." }).optional(),
    captionStyle: z.enum(CAPTION_LOOKS, { message: `captionStyle must be one of ${CAPTION_LOOKS.join(", ")}.` }).default("boxed"),
    captionPosition: z.enum(CAPTION_POSITIONS, { message: `captionPosition must be one of ${CAPTION_POSITIONS.join(", ")}.` }).default("bottom"),
    captionSize: z.enum(CAPTION_SIZES, { message: `captionSize must be one of ${CAPTION_SIZES.join(", ")}.` }).default("medium"),
    /** Where scene pictures come from; absent: Leonardo when the account saved its key, else offline illustrations. */
    imageSource: z.enum(IMAGE_SOURCES, { message: `imageSource must be one of ${IMAGE_SOURCES.join(", ")}.` }).optional(),
    /** Background music (a Premium feature): one track generated and mixed in. */
    music: z.boolean({ message: "music must be true or false." }).default(false),
    /** What the music should sound like; absent: made from the topic. */
    musicPrompt: trimmedOptional(500, "musicPrompt"),
    /** The music's loudness under the voice, in percent (the Music page's slider); absent: 5. */
    musicVolume: z.coerce.number({ message: "musicVolume must be a number from 0 to 100." }).int().min(0, "musicVolume must be at least 0.").max(100, "musicVolume must be at most 100.").optional(),
    /** The words on the thumbnail; absent: the title. */
    thumbnailText: trimmedOptional(100, "thumbnailText"),
    /** Render quality (the picture's short side); absent: HD when the plan allows it, else 720p. */
    quality: z.union([z.literal(RENDER_HEIGHTS[0]), z.literal(RENDER_HEIGHTS[1]), z.literal(RENDER_HEIGHTS[2])], { message: `quality must be one of ${RENDER_HEIGHTS.join(", ")}.` }).optional(),
    /** Upload to YouTube once made (a Premium feature; YouTube must be connected). Implied by publishAt. */
    upload: z.boolean({ message: "upload must be true or false." }).optional(),
    /** When YouTube should publish the video (ISO 8601 with an offset, in the future): the upload is scheduled. */
    publishAt: z.iso
      .datetime({ offset: true, message: "publishAt must be an ISO date and time with an offset, e.g. 2026-05-01T12:00:00Z." })
      .optional(),
    privacyStatus: z.enum(PRIVACY_STATUSES, { message: `privacyStatus must be one of ${PRIVACY_STATUSES.join(", ")}.` }).default("public"),
    youtubeCategoryId: z.enum(YOUTUBE_CATEGORY_IDS, { message: `youtubeCategoryId must be one of ${YOUTUBE_CATEGORY_IDS.join(", ")}.` }).default("22"),
    /** Put under the upload's description (a channel's kit, issue 52). */
    descriptionFooter: trimmedOptional(1000, "descriptionFooter"),
    /** Hashtags added at the end of the upload's description (a channel's kit, issue 52). */
    hashtags: z.array(z.string().regex(/^#[\p{L}\p{N}_]{1,50}$/u, "Each hashtag is # and one word of letters, digits or _.")).max(15, "At most 15 hashtags.").optional(),
  })
  .strict()
  .superRefine((o, ctx) => {
    if (!o.topic && !o.script) ctx.addIssue({ code: "custom", path: ["topic"], message: "Give a topic, or your own script." });
    if (o.duration !== undefined) {
      const { min, max } = DURATION_RULES[o.format];
      if (o.duration < min || o.duration > max) ctx.addIssue({ code: "custom", path: ["duration"], message: `duration must be between ${min} and ${max} for this format.` });
    }
    if (o.publishAt && o.upload === false) ctx.addIssue({ code: "custom", path: ["upload"], message: "publishAt schedules an upload: leave upload out or set it to true." });
  });

/**
 * The options with every default filled in (the topic defaults to the title, the duration to the format's or the
 * script's spoken length, captions to the format's habit, the thumbnail text to the title). MakeVideoOptionsFields
 * is the same check without this step: the shape the MCP tools list.
 */
export const MakeVideoOptionsSchema = MakeVideoOptionsFields.transform(completeMakeVideoOptions);

/** The defaults that depend on other fields, filled into options MakeVideoOptionsFields has checked. */
export function completeMakeVideoOptions(o: z.output<typeof MakeVideoOptionsFields>) {
  return {
    ...o,
    topic: o.topic ?? o.title,
    duration: o.duration ?? defaultDuration(o.format, o.script),
    captions: o.captions ?? captionsByDefault(o.format),
    thumbnailText: o.thumbnailText ?? o.title.slice(0, 100),
    upload: o.upload ?? Boolean(o.publishAt),
  };
}

/** What a client sends (most fields optional). */
export type MakeVideoOptionsInput = z.input<typeof MakeVideoOptionsSchema>;
/** The options with every default filled in: what a run stores and the workflow reads. */
export type MakeVideoOptions = z.output<typeof MakeVideoOptionsSchema>;

/** The format's default length, or the spoken length of the creator's script (within the format's range). */
export function defaultDuration(format: ResolutionValue, script: string | undefined): number {
  const rules = DURATION_RULES[format];
  if (!script) return rules.default;
  const words = script.split(/\s+/).filter((w) => w && w !== "---").length;
  const seconds = Math.ceil(words / SCRIPT_WORDS_PER_SECOND / rules.step) * rules.step;
  return Math.min(rules.max, Math.max(rules.min, seconds));
}


/** Publishing a finished video to YouTube (POST /api/v1/videos/{id}/publish, the MCP publish tool). */
export const PublishVideoSchema = z
  .object({
    /** When YouTube should make it public (ISO 8601 with an offset, in the future); absent: at once. */
    publishAt: z.iso
      .datetime({ offset: true, message: "publishAt must be an ISO date and time with an offset, e.g. 2026-05-01T12:00:00Z." })
      .optional()
      .refine((v) => !v || new Date(v).getTime() > Date.now(), "publishAt must be in the future."),
    privacyStatus: z.enum(PRIVACY_STATUSES, { message: `privacyStatus must be one of ${PRIVACY_STATUSES.join(", ")}.` }).optional(),
    youtubeCategoryId: z.enum(YOUTUBE_CATEGORY_IDS, { message: `youtubeCategoryId must be one of ${YOUTUBE_CATEGORY_IDS.join(", ")}.` }).optional(),
  })
  .strict();
export type PublishVideo = z.output<typeof PublishVideoSchema>;
