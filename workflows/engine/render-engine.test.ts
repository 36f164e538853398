// Which file the worker launches as its browser (decision 182): the binary behind a launcher script that forks
// it, so Remotion's `setpriv --pdeathsig SIGKILL` reaches the browser itself and a killed worker leaves none behind.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { browserBinaryBehind } from "./render-engine";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "reelsmith-browser-launcher-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function file(name: string, text: string): string {
  const full = path.join(dir, name);
  fs.writeFileSync(full, text, { mode: 0o755 });
  return full;
}

describe("browserBinaryBehind", () => {
  const binary = file("chromium-headless-shell.bin", "\x7fELF not really a browser");

  it("looks through a launcher that runs the browser as its child (Debian's chromium-headless-shell)", () => {
    const launcher = file("chromium-headless-shell", `#!/bin/sh\n\n${binary} "$@"\n`);
    expect(browserBinaryBehind(launcher)).toBe(binary);
  });

  it("keeps a launcher that execs its browser, a binary, and a launcher naming a file that does not exist", () => {
    expect(browserBinaryBehind(file("chromium", `#!/bin/sh\nexec ${binary} $FLAGS "$@"\n`))).toBe(path.join(dir, "chromium"));
    expect(browserBinaryBehind(binary)).toBe(binary);
    const dangling = file("dangling", `#!/bin/sh\n/usr/lib/nowhere/chrome "$@"\n`);
    expect(browserBinaryBehind(dangling)).toBe(dangling);
  });
});
