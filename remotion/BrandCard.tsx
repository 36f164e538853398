// A channel's intro or outro card (issue 52, decision 249): its brand colour, its logo and a line of text in its text
// colour, centred. Drawn by the composition for the card's frames (Player, Studio, the exact render) and, through
// the BrandCardStill composition, rasterised once by the fast renderer, so both renderers show the same picture.
import { AbsoluteFill, Img, staticFile, useVideoConfig } from "remotion";
import { z } from "zod";
import { CAPTION_FONT_FAMILY } from "../app/lib/timeline/captions";
import type { CardLayer } from "../app/lib/timeline/timeline";

export const BRAND_CARD_ID = "BrandCardStill";

export const brandCardStillSchema = z.object({
  width: z.number().int().min(16).multipleOf(2),
  height: z.number().int().min(16).multipleOf(2),
  card: z.object({
    kind: z.literal("card"),
    color: z.string(),
    textColor: z.string(),
    text: z.string(),
    logoSrc: z.string().optional(),
  }),
});
export type BrandCardStillProps = z.infer<typeof brandCardStillSchema>;

const resolveSrc = (src: string) => (/^(https?:|data:|blob:)/.test(src) ? src : staticFile(src));

export function BrandCard({ card }: { card: CardLayer }) {
  const { width, height } = useVideoConfig();
  const short = Math.min(width, height);
  const fontSize = Math.round(short * 0.07);
  return (
    <AbsoluteFill style={{ backgroundColor: card.color, alignItems: "center", justifyContent: "center", gap: Math.round(short * 0.05) }}>
      {card.logoSrc ? <Img alt="" src={resolveSrc(card.logoSrc)} style={{ width: Math.round(short * 0.35), height: Math.round(short * 0.35), objectFit: "contain" }} /> : null}
      {card.text ? (
        <div
          style={{
            maxWidth: "80%",
            color: card.textColor,
            fontFamily: CAPTION_FONT_FAMILY,
            fontWeight: 700,
            fontSize,
            lineHeight: 1.2,
            textAlign: "center",
            overflowWrap: "anywhere",
          }}
        >
          {card.text}
        </div>
      ) : null}
    </AbsoluteFill>
  );
}

/** One frame: the card alone, for the fast renderer to rasterise. */
export function BrandCardStill({ card }: BrandCardStillProps) {
  return <BrandCard card={card as CardLayer} />;
}
