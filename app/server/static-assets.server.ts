// Serves the built client's fingerprinted assets (build/client/assets) as their precompressed .br or .gz twin
// when the browser accepts it (made at build time by the precompress plugin in vite.config.ts), cached as
// immutable. Files without a twin, and browsers that accept neither, fall through to express.static.
import fs from "node:fs";
import path from "node:path";
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
    const accepted = req.acceptsEncodings(ENCODINGS.map((e) => e.name));
    // The plain file answers when there is no twin; a cache must still keep the encodings apart.
    res.vary("Accept-Encoding");
    const encoding = ENCODINGS.find((e) => e.name === accepted);
    if (!encoding || !fs.existsSync(file + encoding.suffix) || !fs.existsSync(file)) return next();
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
