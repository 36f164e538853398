// A fast render's progress moves while its captions are drawn as well as while its frames are encoded, and never
// moves back (issue 38: the render page sat at 4 % through 44 s of caption drawing).
import { describe, expect, it } from "vitest";
import type { FastProgress } from "./render-fast";
import { CAPTIONS_SHARE, fastRenderDone } from "./render-fast-progress";

describe("fastRenderDone", () => {
  it("moves through the captions' share while they are drawn, then through the frames, never back", () => {
    const done = fastRenderDone();
    const events: FastProgress[] = [
      ...Array.from({ length: 40 }, (_, i): FastProgress => ({ phase: "captions", done: i + 1, total: 40 })),
      ...Array.from({ length: 101 }, (_, i): FastProgress => ({ phase: "encoding", frame: i * 90, total: 9000 })),
    ];
    const seen = events.map(done);
    for (let i = 1; i < seen.length; i++) expect(seen[i]!).toBeGreaterThanOrEqual(seen[i - 1]!);
    // every caption drawn moves it, up to the captions' share
    const captions = seen.slice(0, 40);
    expect(new Set(captions).size).toBe(40);
    expect(captions[0]).toBeCloseTo(CAPTIONS_SHARE / 40, 9);
    expect(captions.at(-1)).toBeCloseTo(CAPTIONS_SHARE, 9);
    expect(seen[70]).toBeCloseTo(CAPTIONS_SHARE + (1 - CAPTIONS_SHARE) * 0.3, 9);
    expect(seen.at(-1)).toBe(1);
  });

  it("gives a render with no captions the whole range for its frames", () => {
    const done = fastRenderDone();
    expect(done({ phase: "encoding", frame: 0, total: 300 })).toBe(0);
    expect(done({ phase: "encoding", frame: 150, total: 300 })).toBe(0.5);
    expect(done({ phase: "encoding", frame: 300, total: 300 })).toBe(1);
  });

  it("keeps its highest figure when a report comes late or out of order", () => {
    const done = fastRenderDone();
    done({ phase: "captions", done: 3, total: 4 });
    const encoding = done({ phase: "encoding", frame: 200, total: 1000 });
    expect(done({ phase: "captions", done: 4, total: 4 })).toBe(encoding);
    expect(done({ phase: "encoding", frame: 100, total: 1000 })).toBe(encoding);
    expect(done({ phase: "encoding", frame: 5000, total: 1000 })).toBe(1);
  });
});
