// A local fake of the Pexels API: photo and video search, and the CDN serving the files.
// Shapes from https://www.pexels.com/api/documentation/ (found with the docs search; also the official
// pexels-javascript client's types):
//   GET /v1/search?query&orientation&size&per_page&page, "Authorization: <key>" (no scheme) ->
//     { total_results, page, per_page, photos: [{ id, width, height, url, photographer, photographer_url,
//       photographer_id, avg_color, alt, src: { original, large2x, large, medium, small, portrait, landscape, tiny } }], next_page }
//   GET /videos/search?query&orientation&size&per_page&page ->
//     { page, per_page, total_results, url, videos: [{ id, width, height, url, image, duration, user: { id, name, url },
//       video_files: [{ id, quality: "uhd"|"hd"|"sd"|null, file_type: "video/mp4", width, height, fps, link }], video_pictures }] }
//   src renditions: original; large2x = 940x650 box at dpr 2; large = 940x650 box; medium = 350 high.
// The files are real: JPEGs drawn with sharp, MP4s encoded by ffmpeg (a few seconds, moving test patterns).
import { execFile } from "node:child_process";
import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import sharp from "sharp";
import { FakeApi, type FakeRequest, type FakeResponse, type Route } from "./fake-api";

const run = promisify(execFile);

export const FAKE_PEXELS_CLIP_SECONDS = 3;

type Orientation = "portrait" | "landscape";

const hash = (text: string) => [...text].reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, 7);

export class FakePexels extends FakeApi {
  /** Queries that find nothing (any query containing one of these words). */
  readonly emptyWords = new Set<string>(["nothingness"]);
  /** Results per search. */
  resultsPerSearch = 3;
  private readonly videoFiles = new Map<string, Buffer>();
  private tmp?: string;

  protected keyOf(req: FakeRequest) {
    return req.headers.authorization || undefined;
  }

  protected rejectedKey(): FakeResponse {
    return { status: 401, json: { error: "Unauthorized" } };
  }

  protected isPublic(req: FakeRequest) {
    return req.path.startsWith("/photos/") || req.path.startsWith("/video-files/");
  }

  /** The ids a search answers, stable per query and orientation. */
  idsFor(query: string, orientation: Orientation, start: number): number[] {
    if ([...this.emptyWords].some((w) => query.toLowerCase().includes(w))) return [];
    const base = (hash(`${query}|${orientation}`) % 900_000) + start;
    return Array.from({ length: this.resultsPerSearch }, (_, i) => base + i * 7);
  }

  private photoSize(orientation: Orientation) {
    return orientation === "portrait" ? { width: 2400, height: 3600 } : { width: 3600, height: 2400 };
  }

  protected routes(): Route[] {
    return [
      {
        method: "GET",
        pattern: /^\/v1\/search$/,
        handle: (req) => {
          const query = req.query.get("query") ?? "";
          if (!query) return { status: 400, json: { error: "query is required" } };
          const orientation = (req.query.get("orientation") === "portrait" ? "portrait" : "landscape") as Orientation;
          const { width, height } = this.photoSize(orientation);
          const perPage = Number(req.query.get("per_page") ?? 15);
          const photos = this.idsFor(query, orientation, 100_000)
            .slice(0, perPage)
            .map((id, i) => {
              const original = `${this.url}/photos/${id}/pexels-photo-${id}.jpeg`;
              return {
                id,
                width,
                height,
                url: `https://www.pexels.com/photo/${query.replace(/\s+/g, "-")}-${id}/`,
                photographer: ["Ana Lima", "Kenji Sato", "Olu Ade"][i % 3],
                photographer_url: `https://www.pexels.com/@photographer-${i % 3}`,
                photographer_id: 1000 + (i % 3),
                avg_color: "#6A8CAF",
                liked: false,
                alt: `A photo of ${query}`,
                src: {
                  original,
                  large2x: `${original}?auto=compress&cs=tinysrgb&dpr=2&h=650&w=940`,
                  large: `${original}?auto=compress&cs=tinysrgb&h=650&w=940`,
                  medium: `${original}?auto=compress&cs=tinysrgb&h=350`,
                  small: `${original}?auto=compress&cs=tinysrgb&h=130`,
                  portrait: `${original}?auto=compress&cs=tinysrgb&fit=crop&h=1200&w=800`,
                  landscape: `${original}?auto=compress&cs=tinysrgb&fit=crop&h=627&w=1200`,
                  tiny: `${original}?auto=compress&cs=tinysrgb&dpr=1&fit=crop&h=200&w=280`,
                },
              };
            });
          return { json: { total_results: photos.length, page: 1, per_page: perPage, photos } };
        },
      },
      {
        method: "GET",
        pattern: /^\/videos\/search$/,
        handle: (req) => {
          const query = req.query.get("query") ?? "";
          if (!query) return { status: 400, json: { error: "query is required" } };
          const orientation = (req.query.get("orientation") === "portrait" ? "portrait" : "landscape") as Orientation;
          const perPage = Number(req.query.get("per_page") ?? 15);
          const dims = (w: number, h: number) => (orientation === "portrait" ? { width: h, height: w } : { width: w, height: h });
          const videos = this.idsFor(query, orientation, 500_000)
            .slice(0, perPage)
            .map((id, i) => {
              const file = (fileId: number, quality: string | null, w: number, h: number) => ({
                id: fileId,
                quality,
                file_type: "video/mp4",
                ...dims(w, h),
                fps: 25,
                link: `${this.url}/video-files/${id}/${fileId}-${dims(w, h).width}x${dims(w, h).height}.mp4`,
              });
              return {
                id,
                ...dims(3840, 2160),
                url: `https://www.pexels.com/video/${query.replace(/\s+/g, "-")}-${id}/`,
                image: `${this.url}/photos/${id}/pexels-photo-${id}.jpeg`,
                duration: FAKE_PEXELS_CLIP_SECONDS + i,
                user: { id: 2000 + i, name: ["Mira Costa", "Jon Berg", "Lea Kim"][i % 3], url: `https://www.pexels.com/@videographer-${i % 3}` },
                // as Pexels lists them: not in size order, one of unknown size
                video_files: [
                  file(id * 10 + 1, "uhd", 3840, 2160),
                  file(id * 10 + 2, "sd", 960, 540),
                  file(id * 10 + 3, "hd", 1920, 1080),
                  file(id * 10 + 4, "hd", 1280, 720),
                  { id: id * 10 + 5, quality: null, file_type: "video/mp4", width: null, height: null, fps: 25, link: `${this.url}/video-files/${id}/unknown.mp4` },
                ],
                video_pictures: [{ id: id * 10, picture: `${this.url}/photos/${id}/pexels-photo-${id}.jpeg`, nr: 0 }],
              };
            });
          return { json: { page: 1, per_page: perPage, total_results: videos.length, url: "https://www.pexels.com/videos/", videos } };
        },
      },
      {
        method: "GET",
        pattern: /^\/photos\/(\d+)\/pexels-photo-\d+\.jpeg$/,
        handle: async (req, [id]) => {
          const orientation: Orientation = req.query.get("orientation") === "landscape" ? "landscape" : this.orientationOfPhoto(Number(id));
          let { width, height } = this.photoSize(orientation);
          const w = Number(req.query.get("w") ?? 0);
          const h = Number(req.query.get("h") ?? 0);
          const dpr = Number(req.query.get("dpr") ?? 1);
          if (req.query.get("fit") === "crop" && w && h) ({ width, height } = { width: w * dpr, height: h * dpr });
          else if (w || h) {
            const s = Math.min(1, w ? (w * dpr) / width : Infinity, h ? (h * dpr) / height : Infinity);
            ({ width, height } = { width: Math.round(width * s), height: Math.round(height * s) });
          }
          return { body: await this.photo(Number(id), width, height), contentType: "image/jpeg" };
        },
      },
      {
        method: "GET",
        pattern: /^\/video-files\/(\d+)\/\d+-(\d+)x(\d+)\.mp4$/,
        handle: async (_req, [id, w, h]) => ({ body: await this.video(Number(id), Number(w), Number(h)), contentType: "video/mp4" }),
      },
    ];
  }

  /** Photos ids come from searches; the fake remembers which orientation each search was for. */
  private orientationOfPhoto(id: number): Orientation {
    for (const r of this.requestsTo(/^\/v1\/search$/)) {
      const orientation = (r.query.get("orientation") === "portrait" ? "portrait" : "landscape") as Orientation;
      if (this.idsFor(r.query.get("query") ?? "", orientation, 100_000).includes(id)) return orientation;
    }
    return "landscape";
  }

  /** A photo-like JPEG: a sky-to-ground gradient, a sun and hills, coloured by the id. */
  private photo(id: number, width: number, height: number): Promise<Buffer> {
    const hue = (id * 47) % 360;
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 100 ${(100 * height) / width}">
      <defs><linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="hsl(${hue},70%,75%)"/><stop offset="1" stop-color="hsl(${(hue + 40) % 360},60%,45%)"/></linearGradient></defs>
      <rect width="100%" height="100%" fill="url(#sky)"/>
      <circle cx="70" cy="${(30 * height) / width}" r="12" fill="hsl(${(hue + 180) % 360},90%,70%)"/>
      <ellipse cx="20" cy="${(100 * height) / width}" rx="70" ry="${(45 * height) / width}" fill="hsl(${(hue + 90) % 360},45%,30%)"/>
      <ellipse cx="85" cy="${(100 * height) / width}" rx="55" ry="${(30 * height) / width}" fill="hsl(${(hue + 120) % 360},40%,22%)"/>
    </svg>`;
    return sharp(Buffer.from(svg)).jpeg({ quality: 80 }).toBuffer();
  }

  /** A short MP4 of a moving test pattern at the file's size (made once per file). */
  private async video(id: number, width: number, height: number): Promise<Buffer> {
    const key = `${id}-${width}x${height}`;
    const cached = this.videoFiles.get(key);
    if (cached) return cached;
    this.tmp ??= await fsp.mkdtemp(path.join(os.tmpdir(), "fake-pexels-"));
    const out = path.join(this.tmp, `${key}.mp4`);
    await run("/usr/bin/ffmpeg", [
      "-v", "error", "-y", "-f", "lavfi", "-i", `testsrc2=duration=${FAKE_PEXELS_CLIP_SECONDS}:size=${width}x${height}:rate=25`,
      "-f", "lavfi", "-i", `sine=frequency=880:duration=${FAKE_PEXELS_CLIP_SECONDS}`,
      "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-c:a", "aac", "-shortest", out,
    ]);
    const data = await fsp.readFile(out);
    this.videoFiles.set(key, data);
    return data;
  }

  async stop(): Promise<void> {
    await super.stop();
    if (this.tmp) await fsp.rm(this.tmp, { recursive: true, force: true });
  }
}
