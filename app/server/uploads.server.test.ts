import { randomBytes } from "node:crypto";
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { checkImageUpload, decodeDataUrl, UploadRejection } from "./uploads.server";

let png: Buffer;
let jpeg: Buffer;
let gif: Buffer;
let bigPng: Buffer;
const svgText = '<svg xmlns="http://www.w3.org/2000/svg" width="120" height="40"><rect width="120" height="40" fill="#7c3aed"/></svg>';
// The smallest valid ICO header with one 1x1 PNG-less entry is enough for the signature check.
const ico = Buffer.from("0000010001001010000001002000680400001600000000", "hex");

beforeAll(async () => {
  png = await sharp({ create: { width: 32, height: 16, channels: 3, background: "#7c3aed" } }).png().toBuffer();
  jpeg = await sharp(png).jpeg().toBuffer();
  gif = await sharp(png).gif().toBuffer();
  // random pixels do not compress: about 3 MB of PNG
  const side = 1000;
  bigPng = await sharp(randomBytes(side * side * 3), { raw: { width: side, height: side, channels: 3 } }).png().toBuffer();
});

async function rejection(promise: Promise<unknown>): Promise<UploadRejection> {
  try {
    await promise;
  } catch (e) {
    if (e instanceof UploadRejection) return e;
    throw e;
  }
  throw new Error("the upload was accepted");
}

describe("checkImageUpload", () => {
  it("accepts a PNG logo by its bytes and reads its size", async () => {
    const image = await checkImageUpload("logo", { data: png, fileName: "brand.png", declaredMimeType: "image/png" });
    expect(image).toMatchObject({ type: "png", mimeType: "image/png", width: 32, height: 16 });
  });

  it("accepts a file without an extension by what its bytes are", async () => {
    expect((await checkImageUpload("logo", { data: jpeg, fileName: "brand" })).type).toBe("jpg");
  });

  it("accepts a clean SVG logo and stores the cleaned text", async () => {
    const image = await checkImageUpload("logo", { data: Buffer.from(`<?xml version="1.0"?>\n${svgText}`), fileName: "logo.svg" });
    expect(image).toMatchObject({ type: "svg", mimeType: "image/svg+xml", width: 120, height: 40 });
    expect(image.data.toString()).not.toContain("<?xml");
  });

  it("refuses a PNG renamed .svg, naming both types", async () => {
    const e = await rejection(checkImageUpload("logo", { data: png, fileName: "logo.svg" }));
    expect(e.status).toBe(415);
    expect(e.message).toBe("Invalid file type: the file is named .svg but its contents are a PNG image.");
  });

  it("refuses a declared type that disagrees with the bytes", async () => {
    const e = await rejection(checkImageUpload("logo", { data: png, declaredMimeType: "image/jpeg" }));
    expect(e.message).toMatch(/says it is image\/jpeg but its contents are a PNG image/);
  });

  it("refuses an SVG with a script or an event handler, saying which", async () => {
    const script = await rejection(checkImageUpload("logo", { data: Buffer.from(svgText.replace("</svg>", "<script>alert(1)</script></svg>")), fileName: "a.svg" }));
    expect(script.status).toBe(422);
    expect(script.message).toMatch(/<script> element/);
    const onload = await rejection(checkImageUpload("logo", { data: Buffer.from(svgText.replace("<svg ", '<svg onload="alert(1)" ')), fileName: "a.svg" }));
    expect(onload.message).toMatch(/onload=/);
  });

  it("refuses a 3 MB logo with the limit and the file's size", async () => {
    expect(bigPng.length).toBeGreaterThan(2.5 * 1024 * 1024);
    const e = await rejection(checkImageUpload("logo", { data: bigPng, fileName: "big.png" }));
    expect(e.status).toBe(413);
    expect(e.message).toMatch(/^File too large: the logo must be 2 MB or smaller, and this file is \d\.\d MB\.$/);
  });

  it("takes the same 3 MB image as a watermark (5 MB limit)", async () => {
    expect((await checkImageUpload("watermark", { data: bigPng, fileName: "big.png" })).type).toBe("png");
  });

  it("refuses a file that is not an image", async () => {
    const text = await rejection(checkImageUpload("logo", { data: Buffer.from("just some notes"), fileName: "notes.png" }));
    expect(text.status).toBe(415);
    expect(text.message).toMatch(/^Invalid file type: this file is not an image we recognise/);
    const pdf = await rejection(checkImageUpload("watermark", { data: Buffer.from("%PDF-1.4\n%âãÏÓ\n1 0 obj\n<<>>\nendobj\n"), fileName: "doc.pdf" }));
    expect(pdf.message).toMatch(/this file is PDF data/);
  });

  it("refuses an image type the kind does not take", async () => {
    const e = await rejection(checkImageUpload("logo", { data: gif, fileName: "a.gif" }));
    expect(e.message).toBe("Invalid file type: a GIF image cannot be used as the logo. Use SVG, PNG, JPEG, WebP.");
    expect((await checkImageUpload("favicon", { data: ico, fileName: "favicon.ico" })).mimeType).toBe("image/x-icon");
  });

  it("refuses an empty file", async () => {
    expect((await rejection(checkImageUpload("favicon", { data: Buffer.alloc(0) }))).status).toBe(400);
  });
});

describe("decodeDataUrl", () => {
  it("splits a base64 data URL into its type and bytes", () => {
    const { mimeType, data } = decodeDataUrl(`data:image/png;base64,${png.toString("base64")}`);
    expect(mimeType).toBe("image/png");
    expect(data.equals(png)).toBe(true);
  });
  it("refuses anything else", () => {
    expect(() => decodeDataUrl("https://example.com/a.png")).toThrow(UploadRejection);
  });
});
