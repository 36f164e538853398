// A channel's brand kit as its videos carry it (issue 52, decision 249): the part of the kit the picture shows (the
// cards, the logo and watermark, the caption font and colour) and what the sound was made with (the voice, the music
// mood). Stored on the project the channel makes (Project.brand), read into the render's plan, drawn by both
// renderers from the timeline. Pure: no I/O.
import { z } from "zod";
import { CAPTION_FONTS } from "./caption-style";

export const HexColorSchema = z
  .string()
  .trim()
  .regex(/^#[0-9A-Fa-f]{6}$/, 'A colour is "#RRGGBB", e.g. #1E3A8A.')
  .transform((c) => c.toUpperCase());

/** How opaque the watermark is over the video. */
export const WATERMARK_OPACITY = 0.8;

export const VideoBrandSchema = z.object({
  color: HexColorSchema,
  textColor: HexColorSchema,
  captionFont: z.enum(CAPTION_FONTS),
  captionColor: HexColorSchema,
  /** A MediaFile (an image) of the channel's owner: on the cards, and as the watermark when `watermark`. */
  logoFileId: z.string().min(1).max(64).optional(),
  watermark: z.boolean(),
  /** The intro card's text ("" a card with the logo only); no intro when absent. The outro alike. */
  intro: z.string().max(120).optional(),
  outro: z.string().max(120).optional(),
  cardSeconds: z.number().min(1).max(5),
  /** What the voice and the music were asked for (the plan says them; the renderers do not use them). */
  voice: z.string().max(200).nullable(),
  musicMood: z.string().max(120).nullable(),
});
export type VideoBrand = z.output<typeof VideoBrandSchema>;

/** A stored brand read back; null when absent or not in the expected shape. */
export function storedBrand(value: unknown): VideoBrand | null {
  const parsed = VideoBrandSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}

/** Whether the brand changes the picture at all (cards or a watermark). */
export const brandShows = (brand: VideoBrand | null | undefined): boolean =>
  !!brand && (brand.intro !== undefined || brand.outro !== undefined || (brand.watermark && !!brand.logoFileId));
