// Makes a render's scene files reachable by Chromium, which cannot load file:// URLs: images are pre-scaled to
// the output size into the render's temp dir (less for the browser to decode every frame), and everything is
// served by a small http server on 127.0.0.1 that answers Range requests, as audio elements need.
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { randomUUID } from "node:crypto";
import sharp from "sharp";

const CONTENT_TYPES: Record<string, string> = {
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".png": "image/png",
  ".webp": "image/webp",
  ".wav": "audio/wav",
  ".mp3": "audio/mpeg",
  ".m4a": "audio/mp4",
  ".aac": "audio/aac",
  ".ogg": "audio/ogg",
  ".flac": "audio/flac",
  ".mp4": "video/mp4",
};

/**
 * Writes the image scaled and cropped to cover width x height: a PNG (lossless, quick to write) when the target
 * ends in .png, which both renderers then read, so they start from the same pixels; a JPEG otherwise.
 */
export async function prescaleImage(source: string, target: string, width: number, height: number): Promise<void> {
  const scaled = sharp(source).rotate().resize(width, height, { fit: "cover" }).removeAlpha();
  await (target.endsWith(".png") ? scaled.png({ compressionLevel: 1 }) : scaled.jpeg({ quality: 90 })).toFile(target);
}

export type AssetServer = { urlFor: (name: string) => string; close: () => Promise<void> };

/** Serves exactly the files given (name -> absolute path) under a random prefix; nothing else is reachable. */
export async function serveRenderAssets(files: Map<string, string>): Promise<AssetServer> {
  const prefix = `/${randomUUID()}/`;
  const server = http.createServer((req, res) => {
    const pathname = decodeURIComponent(new URL(req.url ?? "/", "http://127.0.0.1").pathname);
    const file = pathname.startsWith(prefix) ? files.get(pathname.slice(prefix.length)) : undefined;
    if (!file || !fs.existsSync(file)) {
      res.writeHead(404).end();
      return;
    }
    const size = fs.statSync(file).size;
    const headers = {
      "Content-Type": CONTENT_TYPES[path.extname(file).toLowerCase()] ?? "application/octet-stream",
      "Accept-Ranges": "bytes",
      "Access-Control-Allow-Origin": "*",
    };
    const range = /^bytes=(\d*)-(\d*)$/.exec(req.headers.range ?? "");
    if (range && (range[1] || range[2])) {
      const start = range[1] ? Number(range[1]) : Math.max(0, size - Number(range[2]));
      const end = range[1] && range[2] ? Math.min(Number(range[2]), size - 1) : size - 1;
      if (start > end || start >= size) {
        res.writeHead(416, { "Content-Range": `bytes */${size}` }).end();
        return;
      }
      res.writeHead(206, { ...headers, "Content-Range": `bytes ${start}-${end}/${size}`, "Content-Length": end - start + 1 });
      if (req.method === "HEAD") return void res.end();
      fs.createReadStream(file, { start, end }).pipe(res);
      return;
    }
    res.writeHead(200, { ...headers, "Content-Length": size });
    if (req.method === "HEAD") return void res.end();
    fs.createReadStream(file).pipe(res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    urlFor: (name) => `http://127.0.0.1:${port}${prefix}${encodeURIComponent(name)}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
