// The caption styles a creator picks per project (on the storyboard): preset, position and size; their labels; and
// the style a project has when none was chosen (its format's: boxed captions on 9:16, none on 16:9, as before
// styles existed). Browser-safe; read by the storyboard page, the server, the render workflow's input and the
// Remotion composition (app/lib/timeline/captions.ts lays captions out from it).
import { captionsByDefault, type VideoFormat } from "./video-format";

export const CAPTION_PRESETS = [
  "boxed",
  "outlined",
  "highlight",
  "none",
] as const;
export const CAPTION_POSITIONS = ["top", "middle", "bottom"] as const;
export const CAPTION_SIZES = ["small", "medium", "large"] as const;
export type CaptionPreset = (typeof CAPTION_PRESETS)[number];
export type CaptionPosition = (typeof CAPTION_POSITIONS)[number];
export type CaptionSize = (typeof CAPTION_SIZES)[number];
/** The caption fonts a channel's brand kit may pick (issue 52): all bold, all in Debian's fonts-dejavu-core. */
export const CAPTION_FONTS = ["sans", "serif", "mono"] as const;
export type CaptionFont = (typeof CAPTION_FONTS)[number];
export const CAPTION_FONT_LABELS: Record<CaptionFont, string> = { sans: "Sans (DejaVu Sans)", serif: "Serif (DejaVu Serif)", mono: "Monospace (DejaVu Sans Mono)" };
export type CaptionStyle = {
  preset: CaptionPreset;
  position: CaptionPosition;
  size: CaptionSize;
  /** The brand kit's caption font; sans (DejaVu Sans Bold) when absent. */
  font?: CaptionFont;
  /** The brand kit's caption text colour ("#RRGGBB"); white when absent. */
  color?: string;
};

export const CAPTION_PRESET_LABELS: Record<CaptionPreset, string> = {
  boxed: "Boxed",
  outlined: "Outlined",
  highlight: "Word highlight",
  none: "None",
};
export const CAPTION_POSITION_LABELS: Record<CaptionPosition, string> = {
  top: "Top",
  middle: "Middle",
  bottom: "Bottom",
};
export const CAPTION_SIZE_LABELS: Record<CaptionSize, string> = {
  small: "S",
  medium: "M",
  large: "L",
};

/** Today's look: white bold text on a translucent dark box, near the bottom, medium size. */
export const DEFAULT_CAPTION_STYLE: CaptionStyle = {
  preset: "boxed",
  position: "bottom",
  size: "medium",
};

/** A project's caption style: its chosen preset, or its format's default (none on 16:9, boxed on 9:16). */
export function captionStyleFor(
  format: VideoFormat,
  stored: {
    captionPreset: CaptionPreset | null;
    captionPosition: CaptionPosition;
    captionSize: CaptionSize;
  }
): CaptionStyle {
  return {
    preset:
      stored.captionPreset ?? (captionsByDefault(format) ? "boxed" : "none"),
    position: stored.captionPosition,
    size: stored.captionSize,
  };
}
