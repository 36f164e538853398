import { describe, expect, it } from "vitest";
import { modulePreloadsAtLowPriority } from "./module-preload-priority.server";

async function through(chunks: string[]): Promise<string> {
  const stream = modulePreloadsAtLowPriority();
  const out: string[] = [];
  stream.on("data", (d: Buffer) => out.push(d.toString()));
  const ended = new Promise((resolve) => stream.on("end", resolve));
  for (const c of chunks) stream.write(c);
  stream.end();
  await ended;
  return out.join("");
}

const html = '<head><link rel="stylesheet" href="/a.css"/></head><body><p>x</p><link rel="modulepreload" href="/assets/a.js"/><link rel="modulepreload" href="/assets/b.js"/><script type="module">import "/assets/a.js";</script></body>';
const expected = html.replaceAll('<link rel="modulepreload"', '<link rel="modulepreload" fetchpriority="low"');

describe("modulePreloadsAtLowPriority", () => {
  it("marks every module preload low, and leaves the rest of the page as it was", async () => {
    expect(await through([html])).toBe(expected);
  });

  it("finds a tag split at any point between two chunks", async () => {
    for (let at = 0; at <= html.length; at++) expect(await through([html.slice(0, at), html.slice(at)]), String(at)).toBe(expected);
  });

  it("passes a page without preloads through unchanged, even one ending in half a tag", async () => {
    expect(await through(["<p>hello</p>", "<link rel=\"module"])).toBe('<p>hello</p><link rel="module');
  });
});
