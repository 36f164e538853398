// A caption as it appears over the video, in the project's style (remotion/captions.ts): boxed (white bold text
// on a translucent dark box), outlined (white text with a black stroke, no blurred shadow), or word highlight
// (outlined, the word being spoken in yellow). Its lines are already split to fit the safe area, where it sits at
// the top, middle or bottom. Drawn by the composition for every frame (Player, Studio, the exact render) and,
// through the CaptionOverlay composition, rasterised once per distinct caption into a transparent PNG by the fast
// renderer, so the typography is identical in both renderers.
import { AbsoluteFill, useVideoConfig } from "remotion";
import { z } from "zod";
import {
  CAPTION_FONT_FAMILY,
  captionGeometry,
  DEFAULT_CAPTION_STYLE,
  HIGHLIGHT_COLOR,
  type CaptionStyle,
} from "./captions";
import { captionStyleSchema } from "./props";

export const CAPTION_OVERLAY_ID = "CaptionOverlay";

export const captionOverlaySchema = z.object({
  width: z.number().int().min(16).multipleOf(2),
  height: z.number().int().min(16).multipleOf(2),
  text: z.string(),
  /** the caption's lines; `text` as one line when absent */
  lines: z.array(z.string()).optional(),
  highlightWord: z.number().int().min(0).nullish(),
  style: captionStyleSchema.optional(),
});
export type CaptionOverlayProps = z.infer<typeof captionOverlaySchema>;

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
            color: "white",
            fontFamily: CAPTION_FONT_FAMILY,
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

/** One caption on a transparent frame: what the fast renderer lays over the video for the caption's time range. */
export function CaptionOverlay({
  text,
  lines,
  highlightWord,
  style,
}: CaptionOverlayProps) {
  return (
    <CaptionBox
      lines={lines ?? [text]}
      highlightWord={highlightWord ?? null}
      style={style}
    />
  );
}
