// The composition's bundle kept between workers (decision 280): built once for the same sources, rebuilt for changed
// ones, and no bundle a live worker serves is removed.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { CACHED_BUNDLE_PREFIX, cachedBundle, compositionSourceHash } from "./composition-bundle-cache";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "reelsmith-bundle-cache-test-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** A process id that was alive a moment ago and is not now. */
const deadPid = () => spawnSync(process.execPath, ["-e", ""]).pid!;

function checkout(name: string, files: Record<string, string>): string {
  const root = path.join(dir, name);
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), text);
  }
  return root;
}

describe("compositionSourceHash", () => {
  const files = { "remotion/Root.tsx": "export const Root = 1;", "app/lib/timeline/timeline.ts": "export const t = 2;", "package-lock.json": "{}" };

  it("is the same for the same sources in another folder, and changes with any source", () => {
    const a = compositionSourceHash(checkout("a", files));
    expect(compositionSourceHash(checkout("b", files))).toBe(a);
    expect(compositionSourceHash(checkout("c", { ...files, "app/lib/timeline/timeline.ts": "export const t = 3;" }))).not.toBe(a);
    expect(compositionSourceHash(checkout("d", { ...files, "public/logo.svg": "<svg/>" }))).not.toBe(a);
    expect(compositionSourceHash(checkout("e", { ...files, "package-lock.json": '{"v":2}' }))).not.toBe(a);
  });

  it("leaves tests and node_modules out", () => {
    const a = compositionSourceHash(checkout("f", files));
    expect(compositionSourceHash(checkout("g", { ...files, "app/lib/timeline/timeline.test.ts": "it()", "remotion/node_modules/x/index.js": "1" }))).toBe(a);
  });
});

describe("cachedBundle", () => {
  const tmp = path.join(dir, "tmp");
  fs.mkdirSync(tmp);
  let builds = 0;
  const build = async (outDir: string) => {
    builds++;
    fs.writeFileSync(path.join(outDir, "index.html"), `<html>${builds}</html>`);
  };

  it("builds once for a hash; a later call (another worker) serves the same folder without building", async () => {
    const first = await cachedBundle("aaa", build, tmp);
    expect(first).toBe(path.join(tmp, `${CACHED_BUNDLE_PREFIX}aaa`));
    expect(fs.readFileSync(path.join(first, "index.html"), "utf8")).toBe("<html>1</html>");
    expect(await cachedBundle("aaa", build, tmp)).toBe(first);
    expect(builds).toBe(1);
    expect(fs.existsSync(path.join(first, ".users", String(process.pid)))).toBe(true);
  });

  it("removes other sources' bundles only when no live process serves them, and half-built folders of dead builders", async () => {
    const unused = path.join(tmp, `${CACHED_BUNDLE_PREFIX}old`);
    fs.mkdirSync(path.join(unused, ".users"), { recursive: true });
    fs.writeFileSync(path.join(unused, "index.html"), "");
    fs.writeFileSync(path.join(unused, ".users", String(deadPid())), "");
    const halfBuilt = path.join(tmp, `${CACHED_BUNDLE_PREFIX}bbb.building-${deadPid()}`);
    fs.mkdirSync(halfBuilt);
    // "aaa" is served by this (live) process
    await cachedBundle("bbb", build, tmp);
    expect(fs.existsSync(unused)).toBe(false);
    expect(fs.existsSync(halfBuilt)).toBe(false);
    expect(fs.existsSync(path.join(tmp, `${CACHED_BUNDLE_PREFIX}aaa`, "index.html"))).toBe(true);
    expect(builds).toBe(2);
  });

  it("keeps nothing of a failed build, and the next call builds again", async () => {
    await expect(
      cachedBundle("ccc", async () => {
        throw new Error("webpack failed");
      }, tmp),
    ).rejects.toThrow("webpack failed");
    expect(fs.readdirSync(tmp).filter((n) => n.includes("ccc"))).toEqual([]);
    expect(fs.readFileSync(path.join(await cachedBundle("ccc", build, tmp), "index.html"), "utf8")).toBe("<html>3</html>");
  });
});
