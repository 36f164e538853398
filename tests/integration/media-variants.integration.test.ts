// Sized image variants (issue 36) through the real media route, in whichever storage the run uses (the local
// folder, or a bucket with TEST_STORAGE=s3): /api/media/<id>?w=<width> gives the owner the image at that width as
// WebP, stored beside the original and served from there the next time; another user gets the same 404 as a
// missing id; a width outside the set is refused; a file no variant is made of comes as itself; deleting the file
// removes its variants.
import sharp from "sharp";
import { afterAll, describe, expect, it } from "vitest";
import { MEDIA_VARIANT_WIDTHS, mediaSrcSet } from "~/lib/media-variants";
import { prisma } from "~/core/db.server";
import { deleteMedia, mediaBackend, mediaVariantKey, saveMedia } from "~/core/storage.server";
import { loader } from "~/routes/projects/api.media.$id";
import { createTestUser, sessionCookieFor } from "../support/auth";
import { callRoute } from "../support/routes";

afterAll(() => prisma.$disconnect());

const get = async (url: string, userId: string, method = "GET") =>
  callRoute(loader, new Request(`http://localhost${url}`, { method, headers: { Cookie: await sessionCookieFor(userId) } }), { id: url.split("/")[3]!.split("?")[0]! });

/** A 1280x720 PNG with detail in it (a flat colour would compress to nothing at any size). */
const scenePng = () =>
  sharp(Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="1280" height="720"><defs><linearGradient id="g"><stop offset="0" stop-color="#f80"/><stop offset="1" stop-color="#08f"/></linearGradient></defs><rect width="1280" height="720" fill="url(#g)"/><circle cx="640" cy="360" r="300" fill="#fff" opacity=".5"/><text x="80" y="200" font-size="120">Scene 1</text></svg>`))
    .png()
    .toBuffer();

describe("/api/media/:id?w=", () => {
  let owner: string;
  let stranger: string;
  let imageId: string;
  let original: Buffer;

  it("gives the owner the image at the asked width as WebP, in the original's proportions", async () => {
    owner = (await createTestUser()).id;
    stranger = (await createTestUser()).id;
    original = await scenePng();
    imageId = (await saveMedia({ userId: owner, kind: "image", data: original, mimeType: "image/png", extension: "png", width: 1280, height: 720 })).id;
    for (const width of [320, 800] as const) {
      const response = await get(`/api/media/${imageId}?w=${width}`, owner);
      expect(response.status).toBe(200);
      expect(response.headers.get("Content-Type")).toBe("image/webp");
      expect(response.headers.get("Cache-Control")).toBe("private, max-age=31536000, immutable");
      const bytes = Buffer.from(await response.arrayBuffer());
      expect(response.headers.get("Content-Length")).toBe(String(bytes.length));
      const meta = await sharp(bytes).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(["webp", width, Math.round((width * 720) / 1280)]);
      expect(bytes.length).toBeLessThan(original.length);
    }
    // without w, the original as it was stored
    const whole = await get(`/api/media/${imageId}`, owner);
    expect(whole.headers.get("Content-Type")).toBe("image/png");
    expect(Buffer.from(await whole.arrayBuffer()).equals(original)).toBe(true);
  });

  it("keeps a made variant in storage beside the original and answers from it the next time", async () => {
    const file = await prisma.mediaFile.findUniqueOrThrow({ where: { id: imageId } });
    const key = mediaVariantKey(file, 320);
    expect(key.startsWith(`${owner}/image/`)).toBe(true);
    const stored = await mediaBackend().read(key);
    // replaced in storage by a marked copy: the route must answer with the stored variant, not make it again
    const marked = await sharp(stored).webp({ quality: 10 }).toBuffer();
    await mediaBackend().put(key, marked, { contentType: "image/webp" });
    expect(Buffer.from(await (await get(`/api/media/${imageId}?w=320`, owner)).arrayBuffer()).equals(marked)).toBe(true);
  });

  it("another user gets the same 404 as for an id that does not exist, and no variant is made for them", async () => {
    const file = await prisma.mediaFile.findUniqueOrThrow({ where: { id: imageId } });
    const theirs = await get(`/api/media/${imageId}?w=480`, stranger);
    const none = await get(`/api/media/does-not-exist?w=480`, owner);
    expect(theirs.status).toBe(404);
    expect(none.status).toBe(404);
    expect(await theirs.json()).toEqual(await none.json());
    expect((await get(`/api/media/${imageId}?w=480`, stranger, "HEAD")).status).toBe(404);
    expect(await mediaBackend().stat(mediaVariantKey(file, 480))).toBeNull();
  });

  it("refuses a width outside the set with 400, naming the widths", async () => {
    for (const w of ["500", "0", "-320", "abc", "320.5", "99999", ""]) {
      const response = await get(`/api/media/${imageId}?w=${w}`, owner);
      expect(response.status, w).toBe(400);
      expect((await response.json()).message, w).toBe(`w is the image's width in pixels: one of ${MEDIA_VARIANT_WIDTHS.join(", ")}.`);
    }
  });

  it("never enlarges: a narrow image asked for wider comes at its own width, still WebP", async () => {
    const small = await sharp(original).resize(400).png().toBuffer();
    const id = (await saveMedia({ userId: owner, kind: "image", data: small, mimeType: "image/png", extension: "png" })).id;
    const meta = await sharp(Buffer.from(await (await get(`/api/media/${id}?w=1280`, owner)).arrayBuffer())).metadata();
    expect([meta.format, meta.width]).toEqual(["webp", 400]);
  });

  it("answers a file no variant is made of (audio, SVG) as itself", async () => {
    const audio = Buffer.from("RIFF fake wav bytes");
    const id = (await saveMedia({ userId: owner, kind: "voiceover", data: audio, mimeType: "audio/wav", extension: "wav" })).id;
    const response = await get(`/api/media/${id}?w=320`, owner);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("audio/wav");
    expect(Buffer.from(await response.arrayBuffer()).equals(audio)).toBe(true);
  });

  it("deleting the file removes its variants too", async () => {
    const file = await prisma.mediaFile.findUniqueOrThrow({ where: { id: imageId } });
    await get(`/api/media/${imageId}?w=1080`, owner);
    expect(await mediaBackend().stat(mediaVariantKey(file, 1080))).not.toBeNull();
    await deleteMedia(imageId);
    for (const width of MEDIA_VARIANT_WIDTHS) expect(await mediaBackend().stat(mediaVariantKey(file, width)), String(width)).toBeNull();
    expect(await mediaBackend().stat(file.storageKey)).toBeNull();
    expect((await get(`/api/media/${imageId}?w=320`, owner)).status).toBe(404);
  });

  it("the page's srcset offers every width, and nothing for a URL that is not one of ours", () => {
    expect(mediaSrcSet("/api/media/abc")).toBe(MEDIA_VARIANT_WIDTHS.map((w) => `/api/media/abc?w=${w} ${w}w`).join(", "));
    expect(mediaSrcSet("https://images.example.com/a.png")).toBeUndefined();
    expect(mediaSrcSet("/api/media/abc?download=1")).toBeUndefined();
  });
});
