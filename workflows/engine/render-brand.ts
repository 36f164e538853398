// The channel's logo made ready for the render (issue 52, decision 249): a small PNG for the brand cards (the browser
// fits it in its box), and the watermark: the logo fitted into the watermark's square (transparent around it) with
// its opacity already applied, so both renderers lay the very same picture over the video as it is.
import path from "node:path";
import sharp from "sharp";
import { WATERMARK_OPACITY } from "~/lib/brand";
import { watermarkBox } from "../../app/lib/timeline/timeline";

export async function prepareBrandPictures(source: string, workDir: string, width: number, height: number, watermark: boolean): Promise<{ logo: string; watermark: string | null }> {
  const logo = path.join(workDir, "logo.png");
  await sharp(source).resize(512, 512, { fit: "inside", withoutEnlargement: true }).png().toFile(logo);
  if (!watermark) return { logo, watermark: null };
  const { size } = watermarkBox(width, height);
  const { data, info } = await sharp(source)
    .resize(size, size, { fit: "contain", background: { r: 0, g: 0, b: 0, alpha: 0 } })
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  for (let p = 3; p < data.length; p += 4) data[p] = Math.round(data[p]! * WATERMARK_OPACITY);
  const mark = path.join(workDir, "watermark.png");
  await sharp(data, { raw: { width: info.width, height: info.height, channels: 4 } }).png().toFile(mark);
  return { logo, watermark: mark };
}
