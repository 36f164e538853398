// The composition's input, validated with zod by Remotion (Studio shows it as a form) and by the render activity.
import { z } from "zod";
import { CAPTION_FONTS, CAPTION_POSITIONS, CAPTION_PRESETS, CAPTION_SIZES } from "./captions";

export const COMPOSITION_ID = "StoryboardVideo";

/** Word timings as stored with a voiceover (StoryboardCell.wordTimings). */
export const wordTimingsSchema = z.object({
  source: z.enum(["provider", "estimate"]),
  audioSeconds: z.number().positive(),
  words: z.array(z.object({ text: z.string(), start: z.number().min(0), end: z.number().min(0) })),
});

/** Stored word timings (a JSON column) read back; null when absent or not in the expected shape. */
export function storedWordTimings(value: unknown): z.infer<typeof wordTimingsSchema> | null {
  const parsed = wordTimingsSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}

export const sceneSchema = z.object({
  /** An http(s) or data: URL, or a file name in the bundle's public dir (resolved with staticFile). */
  imageSrc: z.string().min(1),
  audioSrc: z.string().min(1),
  audioDurationInSeconds: z.number().positive(),
  /** The voiceover text, for burned-in captions. */
  text: z.string(),
  /** A video clip shown instead of the image (muted, looped or cut to the scene), with its length. */
  clipSrc: z.string().min(1).optional(),
  clipDurationInSeconds: z.number().positive().optional(),
  /** How a clip shorter than its scene fills it: looped (the default), or "stretch": slowed by at most 1.5x, then held (AI clips, decision 243). */
  clipFit: z.enum(["loop", "stretch"]).optional(),
  /** When each word of `text` is spoken (from the voice provider, or estimated); estimated from the text when absent. */
  words: wordTimingsSchema.nullish(),
  /** How this scene comes in from the one before (overrides the video's `transition`); a hard cut when "none". */
  transitionIn: z.enum(["none", "fade", "slide", "zoom"]).optional(),
});

/** The transitions between scenes (issue 50, decision 225): a crossfade, a slide (push left) and a zoom through. */
export const TRANSITION_KINDS = ["none", "fade", "slide", "zoom"] as const;
export type TransitionKind = (typeof TRANSITION_KINDS)[number];

export const captionStyleSchema = z.object({
  preset: z.enum(CAPTION_PRESETS),
  position: z.enum(CAPTION_POSITIONS),
  size: z.enum(CAPTION_SIZES),
  /** The brand kit's caption font and text colour (issue 52); sans and white when absent. */
  font: z.enum(CAPTION_FONTS).optional(),
  color: z.string().regex(/^#[0-9A-Fa-f]{6}$/).optional(),
});

/**
 * A channel's brand kit as the video draws it (issue 52, decision 249): an intro and an outro card (the brand colour,
 * the logo, a line of text in the text colour) before the first and after the last scene, and the watermark (a
 * picture already sized and faded by the render activity) in a top corner while the scenes play.
 */
export const brandSchema = z.object({
  color: z.string().regex(/^#[0-9A-Fa-f]{6}$/),
  textColor: z.string().regex(/^#[0-9A-Fa-f]{6}$/),
  /** The logo, shown on the cards. */
  logoSrc: z.string().min(1).optional(),
  /** The watermark picture (square, faded), drawn at its size in the top-left corner. */
  watermarkSrc: z.string().min(1).optional(),
  intro: z.string().max(120).optional(),
  outro: z.string().max(120).optional(),
  cardSeconds: z.number().min(0.5).max(5),
});
export type BrandProps = z.infer<typeof brandSchema>;

export const storyboardVideoSchema = z.object({
  width: z.number().int().min(16).multipleOf(2),
  height: z.number().int().min(16).multipleOf(2),
  fps: z.number().int().min(1).max(60),
  scenes: z.array(sceneSchema).min(1),
  music: z.object({ src: z.string().min(1), volume: z.number().min(0).max(1) }).nullable(),
  captions: z.boolean(),
  /** How captions look and where they sit; today's boxed look at the bottom when absent. */
  captionStyle: captionStyleSchema.optional(),
  /** The video's transition between scenes and its length; hard cuts when absent. */
  transition: z.object({ kind: z.enum(TRANSITION_KINDS), seconds: z.number().min(0.1).max(2) }).optional(),
  /** The channel's brand kit (issue 52); no cards and no watermark when absent. */
  brand: brandSchema.optional(),
});

export type StoryboardScene = z.infer<typeof sceneSchema>;
export type StoryboardVideoProps = z.infer<typeof storyboardVideoSchema>;
