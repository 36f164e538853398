// The built stylesheet's text for AppStylesheet (app/components/layout/app-stylesheet.tsx): read once from
// build/client/assets (where the web server serves it from), then kept; null when there is no such file.
import fs from "node:fs";
import path from "node:path";

const ASSETS = path.resolve("build/client/assets");
const read = new Map<string, string | null>();

export function builtStylesheetText(href: string): string | null {
  const match = /^\/assets\/([\w.-]+\.css)$/.exec(href);
  if (!match) return null;
  if (!read.has(href)) {
    const file = path.join(ASSETS, match[1]!);
    read.set(href, fs.existsSync(file) ? fs.readFileSync(file, "utf8") : null);
  }
  return read.get(href)!;
}
