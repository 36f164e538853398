// A caption line as it appears over the video: white bold text on a translucent dark box near the bottom.
// Drawn by the composition for every frame (Player, Studio, the exact render) and, through the CaptionOverlay
// composition, rasterised once per line into a transparent PNG by the fast renderer, so the typography is
// identical in both renderers.
import { AbsoluteFill, useVideoConfig } from "remotion";
import { z } from "zod";

export const CAPTION_OVERLAY_ID = "CaptionOverlay";

export const captionOverlaySchema = z.object({
  width: z.number().int().min(16).multipleOf(2),
  height: z.number().int().min(16).multipleOf(2),
  text: z.string(),
});
export type CaptionOverlayProps = z.infer<typeof captionOverlaySchema>;

export function CaptionBox({ text }: { text: string }) {
  const { width, height } = useVideoConfig();
  const fontSize = Math.round(Math.min(width, height) * 0.05);
  return (
    <AbsoluteFill style={{ justifyContent: "flex-end", alignItems: "center", padding: `0 6% ${Math.round(height * 0.08)}px` }}>
      <div
        style={{
          maxWidth: "100%",
          padding: `${fontSize * 0.3}px ${fontSize * 0.6}px`,
          borderRadius: fontSize * 0.3,
          backgroundColor: "rgba(0, 0, 0, 0.6)",
          color: "white",
          fontFamily: "DejaVu Sans, Helvetica, Arial, sans-serif",
          fontWeight: 700,
          fontSize,
          lineHeight: 1.25,
          textAlign: "center",
        }}
      >
        {text}
      </div>
    </AbsoluteFill>
  );
}

/** One caption on a transparent frame: what the fast renderer lays over the video for the line's time range. */
export function CaptionOverlay({ text }: CaptionOverlayProps) {
  return <CaptionBox text={text} />;
}
