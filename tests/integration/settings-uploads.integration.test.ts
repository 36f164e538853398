// Uploads for settings through the real routes: the type comes from the bytes, sizes follow the spec, SVGs
// with active content are refused, and a refused file leaves nothing stored.
import fs from "node:fs";
import path from "node:path";
import { randomBytes } from "node:crypto";
import sharp from "sharp";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";

vi.hoisted(() => {
  process.env.OWNER_EMAIL = "owner@settings-uploads.test";
});

import { prisma } from "~/core/db.server";
import { action as uploadMultipart } from "~/routes/settings/api.upload.$kind";
import { action as uploadLogoDataUrl } from "~/routes/settings/api.upload-logo";
import { action as uploadWatermarkDataUrl } from "~/routes/settings/api.upload-watermark";
import { loader as brandingFile } from "~/routes/settings/api.branding.$id";
import { loader as readConfig } from "~/routes/settings/api.config";
import { getGlobalBranding } from "~/server/branding.server";
import { mediaRoot, saveMedia } from "~/core/storage.server";
import { createTestUser, sessionCookieFor } from "../support/auth";
import { callRoute as call } from "../support/routes";

const base = "http://localhost:3000";


function multipart(kind: string, cookie: string, data: Buffer, fileName: string, type = "") {
  const form = new FormData();
  form.append(kind, new File([new Uint8Array(data)], fileName, { type }));
  return call(uploadMultipart, new Request(`${base}/api/upload/${kind}`, { method: "POST", headers: { Cookie: cookie, Origin: base }, body: form }), { kind });
}

function dataUrlUpload(fn: typeof uploadLogoDataUrl, pathName: string, cookie: string, data: Buffer, mime: string, fileName: string) {
  return call(
    fn,
    new Request(`${base}${pathName}`, {
      method: "POST",
      headers: { Cookie: cookie, Origin: base, "Content-Type": "application/json" },
      body: JSON.stringify({ imageData: `data:${mime};base64,${data.toString("base64")}`, fileName }),
    }),
  );
}

const storedFiles = () => {
  const root = mediaRoot();
  return fs.existsSync(root) ? fs.readdirSync(root, { recursive: true }).filter((f) => fs.statSync(path.join(root, String(f))).isFile()) : [];
};

let png: Buffer;
let bigPng: Buffer;
const cleanSvg = '<svg xmlns="http://www.w3.org/2000/svg" width="200" height="50"><rect width="200" height="50" fill="#7c3aed"/><text x="10" y="30">Brand</text></svg>';
let ownerCookie: string;
let creatorCookie: string;
let creatorId: string;

beforeAll(async () => {
  png = await sharp({ create: { width: 64, height: 32, channels: 4, background: "#22c55e" } }).png().toBuffer();
  bigPng = await sharp(randomBytes(1000 * 1000 * 3), { raw: { width: 1000, height: 1000, channels: 3 } }).png().toBuffer();
  const owner = await createTestUser(process.env.OWNER_EMAIL, "Owner");
  const creator = await createTestUser(undefined, "Creator");
  creatorId = creator.id;
  ownerCookie = await sessionCookieFor(owner.id);
  creatorCookie = await sessionCookieFor(creator.id);
});

beforeEach(async () => {
  await prisma.mediaFile.deleteMany();
  await prisma.globalBranding.deleteMany();
  fs.rmSync(mediaRoot(), { recursive: true, force: true });
});

afterAll(async () => {
  await prisma.$disconnect();
});

describe("refused uploads store nothing and say why", () => {
  const refusals: [string, () => Promise<Response>, number, RegExp][] = [
    ["a PNG renamed .svg", () => multipart("logo", ownerCookie, png, "logo.svg", "image/svg+xml"), 415, /named \.svg but its contents are a PNG image/],
    [
      "an SVG with <script>",
      () => multipart("logo", ownerCookie, Buffer.from(cleanSvg.replace("</svg>", "<script>alert(document.cookie)</script></svg>")), "logo.svg", "image/svg+xml"),
      422,
      /refused because it contains a <script> element/,
    ],
    [
      "an SVG with onload=",
      () => multipart("favicon", ownerCookie, Buffer.from(cleanSvg.replace("<svg ", '<svg onload="alert(1)" ')), "icon.svg", "image/svg+xml"),
      422,
      /event handler \(onload=\)/,
    ],
    ["a 3 MB logo", () => multipart("logo", ownerCookie, bigPng, "big.png", "image/png"), 413, /^File too large: the logo must be 2 MB or smaller/],
    ["a non-image", () => multipart("watermark", creatorCookie, Buffer.from("name,email\nann,ann@example.com\n"), "mark.png", "image/png"), 415, /not an image/],
    [
      "a 3 MB logo through the older data-URL call",
      () => dataUrlUpload(uploadLogoDataUrl, "/api/upload-logo", ownerCookie, bigPng, "image/png", "big.png"),
      413,
      /File too large/,
    ],
    [
      "a non-image watermark through the older data-URL call",
      () => dataUrlUpload(uploadWatermarkDataUrl, "/api/upload-watermark", creatorCookie, Buffer.from("%PDF-1.7\n1 0 obj\n<<>>\nendobj\n"), "image/png", "mark.png"),
      415,
      /PDF data/,
    ],
  ];

  it.each(refusals)("%s", async (_name, upload, status, reason) => {
    const response = await upload();
    expect(response.status).toBe(status);
    const body = await response.json();
    expect(body.message).toMatch(reason);
    expect(await prisma.mediaFile.count()).toBe(0);
    expect(storedFiles()).toEqual([]);
    expect(await getGlobalBranding()).toEqual({ customLogoUrl: null, customFaviconUrl: null });
  });

  it("refuses a logo from anyone but the owner", async () => {
    const response = await multipart("logo", creatorCookie, png, "logo.png", "image/png");
    expect(response.status).toBe(403);
    expect((await response.json()).message).toBe("Only the owner account can change the logo and favicon.");
    expect(await prisma.mediaFile.count()).toBe(0);
  });

  it("answers 400 naming the field when the file is missing", async () => {
    const response = await call(
      uploadMultipart,
      new Request(`${base}/api/upload/logo`, { method: "POST", headers: { Cookie: ownerCookie }, body: new FormData() }),
      { kind: "logo" },
    );
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ field: "logo" });
  });
});

describe("accepted uploads", () => {
  it("stores the owner's SVG logo cleaned, serves it to anyone as branding, and replaces the old one", async () => {
    const first = await multipart("logo", ownerCookie, png, "logo.png", "image/png");
    expect(first.status).toBe(200);
    const firstUrl = (await first.json()).customLogoUrl as string;
    expect(firstUrl).toMatch(/^\/api\/branding\/\w+$/);

    const second = await multipart("logo", ownerCookie, Buffer.from(`<?xml version="1.0"?>\n${cleanSvg}`), "logo.svg", "image/svg+xml");
    const body = await second.json();
    expect(body).toMatchObject({ success: true, customLogoUrl: expect.stringMatching(/^\/api\/branding\//) });
    expect((await getGlobalBranding()).customLogoUrl).toBe(body.customLogoUrl);
    expect(await prisma.mediaFile.count({ where: { kind: "branding" } })).toBe(1);

    // served without a session, as an SVG that cannot run anything
    const served = await call(brandingFile, new Request(`${base}${body.customLogoUrl}`), { id: body.customLogoUrl.split("/").pop() });
    expect(served.status).toBe(200);
    expect(served.headers.get("Content-Type")).toBe("image/svg+xml");
    expect(served.headers.get("Content-Security-Policy")).toContain("default-src 'none'");
    const svg = await served.text();
    expect(svg).toContain("<rect");
    expect(svg).not.toContain("<?xml");

    const old = await call(brandingFile, new Request(`${base}${firstUrl}`), { id: firstUrl.split("/").pop()! });
    expect(old.status).toBe(404);
  });

  it("serves only branding files on the branding route", async () => {
    const voiceover = await saveMedia({ userId: creatorId, kind: "voiceover", data: Buffer.from("RIFF"), mimeType: "audio/wav", extension: "wav" });
    const response = await call(brandingFile, new Request(`${base}/api/branding/${voiceover.id}`), { id: voiceover.id });
    expect(response.status).toBe(404);
  });

  it("removes the logo and its file with DELETE /api/upload-logo", async () => {
    await multipart("logo", ownerCookie, png, "logo.png", "image/png");
    const response = await call(uploadLogoDataUrl, new Request(`${base}/api/upload-logo`, { method: "DELETE", headers: { Cookie: ownerCookie } }));
    expect(await response.json()).toMatchObject({ success: true, customLogoUrl: null });
    expect(await prisma.mediaFile.count()).toBe(0);
    expect(storedFiles()).toEqual([]);
  });

  it("keeps a favicon (ICO) for the owner", async () => {
    const ico = Buffer.concat([Buffer.from("000001000100", "hex"), Buffer.from("1010000001002000", "hex"), Buffer.from("6804000016000000", "hex")]);
    const response = await multipart("favicon", ownerCookie, ico, "favicon.ico", "image/x-icon");
    expect(response.status).toBe(200);
    expect((await getGlobalBranding()).customFaviconUrl).toMatch(/^\/api\/branding\//);
  });

  it("saves a creator's watermark privately and replaces the previous one (newer and older calls)", async () => {
    const first = await multipart("watermark", creatorCookie, png, "mark.png", "image/png");
    const { watermarkImageUrl } = await first.json();
    expect(watermarkImageUrl).toMatch(/^\/api\/media\/\w+$/);
    const second = await dataUrlUpload(uploadWatermarkDataUrl, "/api/upload-watermark", creatorCookie, bigPng, "image/png", "big.png");
    expect(second.status).toBe(200);
    const config = await (await call(readConfig, new Request(`${base}/api/config`, { headers: { Cookie: creatorCookie } }))).json();
    expect(config.watermarkImageUrl).toBe((await second.json()).watermarkImageUrl);
    const files = await prisma.mediaFile.findMany({ where: { userId: creatorId, kind: "watermark" } });
    expect(files).toHaveLength(1);
    expect(`/api/media/${files[0]!.id}`).toBe(config.watermarkImageUrl);
  });
});
