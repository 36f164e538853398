import { describe, expect, it } from "vitest";
import { defaultRenderHeight, videoSizeFor } from "~/lib/video-format";

describe("videoSizeFor", () => {
  it("gives 720p, HD and 4K sizes, upright for vertical formats", () => {
    expect(videoSizeFor("16:9", 720)).toEqual({ width: 1280, height: 720 });
    expect(videoSizeFor("16:9", 1080)).toEqual({ width: 1920, height: 1080 });
    expect(videoSizeFor("16:9", 2160)).toEqual({ width: 3840, height: 2160 });
    expect(videoSizeFor("9:16", 720)).toEqual({ width: 720, height: 1280 });
    expect(videoSizeFor("9:16-tiktok", 2160)).toEqual({ width: 2160, height: 3840 });
  });

  it("renders HD by default for premium and 720p for free", () => {
    expect(defaultRenderHeight(2160)).toBe(1080);
    expect(defaultRenderHeight(720)).toBe(720);
  });
});
