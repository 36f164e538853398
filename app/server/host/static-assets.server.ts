// How the web server sends bytes (decision 134): the built client's fingerprinted assets (build/client/assets)
// as their precompressed .br or .gz twin when the browser accepts it (made at build time by the precompress
// plugin in vite.config.ts), cached as immutable; files without a twin, and browsers that accept neither, fall
// through to express.static. Everything else the server answers (pages, JSON) is compressed on the fly, except
// server-sent events, which must reach the browser as they are written.
import fs from "node:fs";
import path from "node:path";
import compression from "compression";
import type { RequestHandler } from "express";
import express from "express";

const ENCODINGS = [
  { name: "br", suffix: ".br" },
  { name: "gzip", suffix: ".gz" },
] as const;

/** Cache-Control for a file whose name changes with its content. */
export const IMMUTABLE = "public, max-age=31536000, immutable";

/** Middleware for the folder `dir` mounted at some path: precompressed twins first, then the plain files. */
export function fingerprintedAssets(dir: string): RequestHandler[] {
  const root = path.resolve(dir);
  const precompressed: RequestHandler = (req, res, next) => {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    let file: string;
    try {
      file = path.join(root, decodeURIComponent(req.path));
    } catch {
      return next();
    }
    if (!file.startsWith(root + path.sep)) return next();
    // The plain file answers when there is no twin; a cache must still keep the encodings apart.
    res.vary("Accept-Encoding");
    // Ours is the order of preference (browsers list gzip first yet accept brotli as much)
    const encoding = ENCODINGS.find((e) => req.acceptsEncodings(e.name) === e.name && fs.existsSync(file + e.suffix));
    if (!encoding || !fs.existsSync(file)) return next();
    res.setHeader("Content-Type", express.static.mime.lookup(file) + (/\.(js|mjs|css|json|svg)$/.test(file) ? "; charset=utf-8" : ""));
    res.setHeader("Content-Encoding", encoding.name);
    res.sendFile(file + encoding.suffix, { headers: { "Cache-Control": IMMUTABLE }, cacheControl: false, dotfiles: "deny" }, (err) => {
      if (err) next(err);
    });
  };
  const plain = express.static(root, {
    fallthrough: true,
    setHeaders: (res) => res.setHeader("Cache-Control", IMMUTABLE),
  });
  return [precompressed, plain];
}

/** Brotli when the client accepts it, else gzip, for compressible answers; never for text/event-stream. */
export function compressedResponses(): RequestHandler {
  return compression({
    filter: (req, res) => !String(res.getHeader("Content-Type") ?? "").startsWith("text/event-stream") && compression.filter(req, res),
  });
}
