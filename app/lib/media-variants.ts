// Sized variants of a creator's images (issue 36): "/api/media/<id>?w=<width>" answers the image scaled to that
// width as WebP, so a phone showing a scene at 378 px does not download the 1280 px PNG. The widths are a fixed
// set, so the variants stored per image stay bounded; the page lets the browser pick one with srcset and sizes.

/** The widths a variant may be asked for, in pixels, smallest first. */
export const MEDIA_VARIANT_WIDTHS = [320, 480, 640, 800, 1080, 1280] as const;
export type MediaVariantWidth = (typeof MEDIA_VARIANT_WIDTHS)[number];

export function isMediaVariantWidth(width: number): width is MediaVariantWidth {
  return (MEDIA_VARIANT_WIDTHS as readonly number[]).includes(width);
}

/** Image types a variant is made of; any other file (SVG, GIF, audio, video) is answered as itself. */
export const RESIZABLE_IMAGE_TYPES = new Set(["image/png", "image/jpeg", "image/webp", "image/avif"]);

const OWN_MEDIA_URL = /^\/api\/media\/[A-Za-z0-9_-]+$/;

/** The variant's URL; a URL that is not one of our media files (or has a query already) is returned unchanged. */
export function mediaVariantUrl(url: string, width: MediaVariantWidth): string {
  return OWN_MEDIA_URL.test(url) ? `${url}?w=${width}` : url;
}

/** A srcset offering every variant width of one of our media files; undefined for any other URL. */
export function mediaSrcSet(url: string): string | undefined {
  if (!OWN_MEDIA_URL.test(url)) return undefined;
  return MEDIA_VARIANT_WIDTHS.map((w) => `${url}?w=${w} ${w}w`).join(", ");
}
