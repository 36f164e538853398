// Pexels stock media through the real routes, workflow and activity, against the local fake of the Pexels API:
// a Pexels-photo project (9:16) and a Pexels-clip project (16:9) get scene media scaled to their format,
// credited on the scene and in the description draft; a rejected key, a missing key and an empty search
// answer with messages a creator can act on.
import { execFileSync } from "node:child_process";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { PEXELS_KEY_MISSING } from "~/lib/image-source";
import { action as generateImage } from "~/routes/storyboard/api.ai.generate-image";
import { action as putImageSource } from "~/routes/storyboard/api.image-source";
import { loader as readCells } from "~/routes/storyboard/api.storyboards";
import { action as generateMetadata } from "~/routes/publish/api.generate-metadata";
import { prisma } from "~/core/db.server";
import { updateConfig } from "~/core/settings.server";
import { findMediaForUser, mediaFilePath } from "~/core/storage.server";
import { FAKE_PEXELS_CLIP_SECONDS } from "../fakes/pexels";
import { createTestUser, sessionCookieFor } from "../support/auth";
import { callRoute as call } from "../support/routes";
import { startTestWorker } from "../support/temporal";

// The fake must be listening, and the app pointed at it, before the app's environment is first read.
const { fake } = await vi.hoisted(async () => {
  const { FakePexels } = await import("../fakes/pexels");
  const fake = new FakePexels("pexels-test-key-0123456789");
  process.env.PEXELS_BASE_URL = await fake.start();
  return { fake };
});

const base = "http://localhost:3000";
let stopWorker: (() => Promise<void>) | undefined;

beforeAll(async () => {
  stopWorker = (await startTestWorker()).stop;
});
afterAll(async () => {
  await stopWorker?.();
  await fake.stop();
  await prisma.$disconnect();
});

const PROMPTS = ['lighthouse, coast — scene 1 of "Sea Lights", cinematic photograph, vertical 9:16 frame', "A lighthouse on a rocky coast at dusk"];

async function creator(options: { resolution: "shorts" | "landscape"; key?: string; prompts?: string[] }) {
  const user = await createTestUser();
  if (options.key) await updateConfig(user.id, { pexelsApiKey: options.key });
  const project = await prisma.project.create({
    data: {
      userId: user.id,
      title: "Sea Lights",
      topic: "lighthouses",
      resolution: options.resolution,
      durationSeconds: 30,
      script: { create: { status: "completed", text: "Lighthouses guide ships.", wordCount: 3, targetWords: 75 } },
      storyboard: {
        create: {
          title: "Sea Lights",
          status: "completed",
          cells: { create: (options.prompts ?? PROMPTS).map((imagePrompt, cellIndex) => ({ cellIndex, imagePrompt, voiceoverText: "Lighthouses guide ships home at night.", estimatedDuration: 3 })) },
        },
      },
    },
  });
  await prisma.user.update({ where: { id: user.id }, data: { currentProjectId: project.id } });
  return { user, project, cookie: await sessionCookieFor(user.id) };
}

const post = (cookie: string, route: typeof generateImage, url: string, body: unknown, method = "POST") =>
  call(route, new Request(`${base}${url}`, { method, headers: { Cookie: cookie, Origin: base, "Content-Type": "application/json" }, body: JSON.stringify(body) }));

const cellsOf = async (cookie: string) =>
  (await (await call(readCells, new Request(`${base}/api/storyboards`, { headers: { Cookie: cookie } }))).json()).storyboardCells as {
    imageUrl: string | null;
    clipUrl: string | null;
    clipDuration: number | null;
    mediaCredit: { kind: string; author: string; pageUrl: string } | null;
  }[];

function probe(file: string) {
  return JSON.parse(execFileSync("/usr/bin/ffprobe", ["-v", "error", "-show_streams", "-show_format", "-of", "json", file]).toString()) as {
    streams: { codec_type: string; codec_name: string; width?: number; height?: number }[];
    format: { duration: string };
  };
}

describe("Pexels photos", () => {
  it("fills each scene of a 9:16 project with a different portrait photo at 1080x1920, credited on the scene and in the description", { timeout: 120_000 }, async () => {
    const { user, cookie } = await creator({ resolution: "shorts", key: fake.apiKey });
    expect((await post(cookie, putImageSource, "/api/image-source", { imageSource: "pexels_photos" }, "PUT")).status).toBe(200);
    for (const cellIndex of [0, 1]) {
      const response = await post(cookie, generateImage, "/api/ai/generate-image", { cellIndex });
      expect(response.status, await response.clone().text()).toBe(200);
    }
    const searches = fake.requestsTo(/^\/v1\/search$/).slice(-2);
    expect(searches.map((r) => [r.query.get("query"), r.query.get("orientation")])).toEqual([
      ["lighthouse coast", "portrait"],
      ["lighthouse rocky coast dusk", "portrait"],
    ]);
    expect(searches[0]!.headers.authorization).toBe(fake.apiKey);

    const cells = await cellsOf(cookie);
    expect(cells.map((c) => c.clipUrl)).toEqual([null, null]);
    for (const cell of cells) {
      const file = (await findMediaForUser(user.id, cell.imageUrl!.split("/").pop()!))!;
      const meta = await sharp(mediaFilePath(file)).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(["jpeg", 1080, 1920]);
    }
    expect(cells[0]!.mediaCredit).toMatchObject({ kind: "photo", author: "Ana Lima" });
    expect(cells[1]!.mediaCredit?.pageUrl).not.toBe(cells[0]!.mediaCredit?.pageUrl);

    const metadata = await (await post(cookie, generateMetadata, "/api/generate-metadata", { title: "Sea Lights", script: "Lighthouses guide ships home at night." })).json();
    expect(metadata.description).toContain("Stock media from Pexels (https://www.pexels.com):");
    expect(metadata.description).toContain(`Photo by Ana Lima on Pexels: ${cells[0]!.mediaCredit!.pageUrl}`);
  });
});

describe("Pexels clips", () => {
  it("gives a 16:9 scene a muted Full HD clip of the stock video's length, with its first frame as the picture", { timeout: 180_000 }, async () => {
    const { user, cookie } = await creator({ resolution: "landscape", key: fake.apiKey, prompts: ["ocean waves"] });
    expect((await post(cookie, putImageSource, "/api/image-source", { imageSource: "pexels_clips" }, "PUT")).status).toBe(200);
    const response = await post(cookie, generateImage, "/api/ai/generate-image", { cellIndex: 0 });
    expect(response.status, await response.clone().text()).toBe(200);
    const search = fake.requestsTo(/^\/videos\/search$/).at(-1)!;
    expect([search.query.get("query"), search.query.get("orientation")]).toEqual(["ocean waves", "landscape"]);
    // of the 4K, Full HD, 720p and SD files, the Full HD one was downloaded
    expect(fake.requestsTo(/^\/video-files\//).at(-1)!.path).toMatch(/-1920x1080\.mp4$/);

    const [cell] = await cellsOf(cookie);
    expect(cell!.clipUrl).toMatch(/^\/api\/media\//);
    expect(cell!.mediaCredit).toMatchObject({ kind: "video", author: "Mira Costa" });
    expect(cell!.clipDuration).toBeCloseTo(FAKE_PEXELS_CLIP_SECONDS, 0);
    const clip = probe(mediaFilePath((await findMediaForUser(user.id, cell!.clipUrl!.split("/").pop()!))!));
    // the stock video's sound is gone: the voiceover plays over the clip
    expect(clip.streams.map((s) => [s.codec_type, s.codec_name, s.width, s.height])).toEqual([["video", "h264", 1920, 1080]]);
    const poster = await sharp(mediaFilePath((await findMediaForUser(user.id, cell!.imageUrl!.split("/").pop()!))!)).metadata();
    expect([poster.width, poster.height]).toEqual([1920, 1080]);
  });
});

describe("Pexels failures say what to do", () => {
  it("a rejected key: the provider's message, and the scene keeps no picture", { timeout: 60_000 }, async () => {
    const { cookie } = await creator({ resolution: "shorts", key: "pexels-revoked-key" });
    expect((await post(cookie, putImageSource, "/api/image-source", { imageSource: "pexels_photos" }, "PUT")).status).toBe(200);
    const response = await post(cookie, generateImage, "/api/ai/generate-image", { cellIndex: 0 });
    expect(response.status).toBe(502);
    expect((await response.json()).message).toBe("Pexels rejected the API key. Check the key saved in Settings (API Keys).");
    expect((await cellsOf(cookie))[0]!.imageUrl).toBeNull();
  });

  it("no key: Pexels cannot be chosen, and a project that chose it before the key was removed says so", { timeout: 60_000 }, async () => {
    const { project, cookie } = await creator({ resolution: "shorts" });
    const refused = await post(cookie, putImageSource, "/api/image-source", { imageSource: "pexels_clips" }, "PUT");
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({ message: "Pexels photos and clips need your free Pexels API key: save it in Settings first.", field: "imageSource" });
    await prisma.project.update({ where: { id: project.id }, data: { imageSource: "pexels_photos" } });
    const response = await post(cookie, generateImage, "/api/ai/generate-image", { cellIndex: 0 });
    expect(response.status).toBe(502);
    expect((await response.json()).message).toBe(PEXELS_KEY_MISSING);
  });

  it("no result: names the searches tried", { timeout: 60_000 }, async () => {
    const { cookie } = await creator({ resolution: "shorts", key: fake.apiKey, prompts: ["nothingness void"] });
    await post(cookie, putImageSource, "/api/image-source", { imageSource: "pexels_photos" }, "PUT");
    const response = await post(cookie, generateImage, "/api/ai/generate-image", { cellIndex: 0 });
    expect(response.status).toBe(502);
    expect((await response.json()).message).toMatch(/^Pexels found no photo for "nothingness void" \(nor for "nothingness"\)\. Reword this scene's image prompt/);
  });
});
