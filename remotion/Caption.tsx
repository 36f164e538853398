// A caption as it appears over the video, in the project's style (app/lib/timeline/captions.ts): boxed (white bold text
// on a translucent dark box), outlined (white text with a black stroke, no blurred shadow), or word highlight
// (outlined, the word being spoken in yellow). Its lines are already split to fit the safe area, where it sits at
// the top, middle or bottom. Drawn by the composition for every frame (Player, Studio, the exact render) and,
// through the CaptionSheet composition (one frame per distinct caption), rasterised into transparent PNGs by the
// fast renderer, so the typography is identical in both renderers.
import { AbsoluteFill, useCurrentFrame, useVideoConfig } from "remotion";
import { z } from "zod";
import {
  CAPTION_FONT_FAMILIES,
  captionGeometry,
  DEFAULT_CAPTION_STYLE,
  HIGHLIGHT_COLOR,
  type CaptionStyle,
} from "../app/lib/timeline/captions";
import { captionStyleSchema } from "../app/lib/timeline/video-props";

export const CAPTION_SHEET_ID = "CaptionSheet";

const sheetCaptionSchema = z.object({
  lines: z.array(z.string()).min(1),
  highlightWord: z.number().int().min(0).nullish(),
  style: captionStyleSchema.optional(),
});
/** Every distinct caption of a video, one per frame, for the fast renderer to rasterise in one pass. */
export const captionSheetSchema = z.object({
  width: z.number().int().min(16).multipleOf(2),
  height: z.number().int().min(16).multipleOf(2),
  captions: z.array(sheetCaptionSchema).min(1),
});
export type CaptionSheetProps = z.infer<typeof captionSheetSchema>;

export function CaptionBox({
  lines,
  highlightWord = null,
  style = DEFAULT_CAPTION_STYLE,
}: {
  lines: string[];
  highlightWord?: number | null;
  style?: CaptionStyle;
}) {
  const { width, height } = useVideoConfig();
  if (style.preset === "none") return null;
  const g = captionGeometry(style, width, height);
  const boxed = style.preset === "boxed";
  const placement: React.CSSProperties =
    style.position === "top"
      ? { top: g.area.top }
      : style.position === "middle"
      ? { top: (g.area.top + g.area.bottom) / 2, transform: "translateY(-50%)" }
      : { bottom: height - g.area.bottom };
  let word = 0;
  return (
    <AbsoluteFill>
      <div
        style={{
          position: "absolute",
          left: g.area.left,
          width: g.area.right - g.area.left,
          display: "flex",
          justifyContent: "center",
          ...placement,
        }}
      >
        <div
          style={{
            maxWidth: "100%",
            padding: `${g.padY}px ${g.padX}px`,
            borderRadius: boxed ? g.fontSize * 0.3 : 0,
            backgroundColor: boxed ? "rgba(0, 0, 0, 0.6)" : "transparent",
            color: style.color ?? "white",
            fontFamily: CAPTION_FONT_FAMILIES[style.font ?? "sans"],
            fontWeight: 700,
            fontSize: g.fontSize,
            lineHeight: `${g.lineHeight}px`,
            textAlign: "center",
            overflowWrap: "anywhere",
            // an outline by stroke, painted under the fill so the letters keep their weight
            ...(boxed
              ? {}
              : {
                  WebkitTextStroke: `${g.stroke * 2}px black`,
                  paintOrder: "stroke fill",
                }),
          }}
        >
          {lines.map((line, l) => (
            <div key={l}>
              {line.split(" ").map((w, k) => {
                const index = word++;
                return (
                  <span key={k}>
                    {k > 0 ? " " : null}
                    <span
                      style={
                        index === highlightWord
                          ? { color: HIGHLIGHT_COLOR }
                          : undefined
                      }
                    >
                      {w}
                    </span>
                  </span>
                );
              })}
            </div>
          ))}
        </div>
      </div>
    </AbsoluteFill>
  );
}

/**
 * Frame k of the sheet is caption k alone on a transparent frame: what the fast renderer lays over the video for
 * that caption's time range. One render of the sheet draws them all (decision 100).
 */
export function CaptionSheet({ captions }: CaptionSheetProps) {
  const frame = useCurrentFrame();
  const caption = captions[Math.min(Math.max(0, frame), captions.length - 1)]!;
  return <CaptionBox lines={caption.lines} highlightWord={caption.highlightWord ?? null} style={caption.style} />;
}
