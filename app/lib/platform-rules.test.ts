import { describe, expect, it } from "vitest";
import { blockingReasons, captionFor, instagramChecks, parseFrameRate, tiktokChecks, tiktokChunkPlan } from "./platform-rules";

const MB = 1024 * 1024;
const short = { durationSeconds: 30, width: 1080, height: 1920, fps: 30, sizeBytes: 20 * MB };

describe("TikTok's chunk rules (media transfer guide)", () => {
  it("follows the guide's own example: 50,000,123 bytes in 10,000,000-byte chunks, the last one taking the rest", () => {
    const plan = tiktokChunkPlan(50_000_123);
    expect(plan).toMatchObject({ chunkSize: 10_000_000, totalChunkCount: 5 });
    expect(plan.chunks.at(-1)).toEqual({ start: 40_000_000, end: 50_000_123 });
  });
  it("sends a video under 5 MB whole", () => {
    expect(tiktokChunkPlan(3 * MB)).toMatchObject({ chunkSize: 3 * MB, totalChunkCount: 1, chunks: [{ start: 0, end: 3 * MB }] });
  });
  it("keeps to at most 1,000 chunks of at most 64 MB, the last at most 128 MB", () => {
    const size = 4 * 1024 * MB - 1;
    const plan = tiktokChunkPlan(size, 5 * MB);
    expect(plan.totalChunkCount).toBeLessThanOrEqual(1000);
    expect(plan.chunkSize).toBeLessThanOrEqual(64 * MB);
    const last = plan.chunks.at(-1)!;
    expect(last.end - last.start).toBeLessThanOrEqual(128 * MB);
    expect(last.end).toBe(size);
  });
});

describe("each platform's rules", () => {
  it("blocks a 20-minute 16:9 video for TikTok and Reels, each with its reason", () => {
    const long = { durationSeconds: 1200, width: 1920, height: 1080, fps: 30, sizeBytes: 200 * MB };
    expect(blockingReasons(tiktokChecks(long, ""))).toEqual(["TikTok lets this account post videos of at most 10 minutes; this one is 20 minutes."]);
    expect(blockingReasons(instagramChecks(long, ""))).toEqual(["Instagram Reels are at most 15 minutes; this video is 20 minutes."]);
    // the landscape frame is a warning, not a refusal
    expect(tiktokChecks(long, "").find((r) => r.rule === "aspect")).toMatchObject({ ok: false, blocking: false });
  });
  it("uses the creator's own longest video from creator info", () => {
    expect(blockingReasons(tiktokChecks({ ...short, durationSeconds: 200 }, "", 180))).toHaveLength(1);
    expect(blockingReasons(tiktokChecks({ ...short, durationSeconds: 200 }, "", 3600))).toEqual([]);
  });
  it("refuses Reels over 300 MB, under 3 seconds, with more than 30 hashtags or 2,200 characters", () => {
    expect(blockingReasons(instagramChecks({ ...short, sizeBytes: 301 * MB }, ""))[0]).toContain("at most 300 MB");
    expect(blockingReasons(instagramChecks({ ...short, durationSeconds: 2 }, ""))[0]).toContain("at least 3 seconds");
    const tags = Array.from({ length: 31 }, (_, i) => `#tag${i}`).join(" ");
    expect(blockingReasons(instagramChecks(short, tags))).toEqual(["Instagram takes at most 30 hashtags; this caption has 31."]);
    expect(blockingReasons(instagramChecks(short, "x".repeat(2201)))[0]).toContain("at most 2,200 characters");
    expect(blockingReasons(instagramChecks(short, "Bees #bees"))).toEqual([]);
  });
  it("refuses a frame rate outside 23-60 fps", () => {
    expect(blockingReasons(tiktokChecks({ ...short, fps: 15 }, ""))).toEqual(["TikTok takes 23 to 60 frames per second; this video has 15."]);
    expect(blockingReasons(instagramChecks({ ...short, fps: 120 }, ""))).toEqual(["Instagram takes 23 to 60 frames per second; this video has 120."]);
    // film and NTSC rates pass both
    for (const fps of [23.98, 29.97, 59.94, 60]) expect(blockingReasons([...tiktokChecks({ ...short, fps }, ""), ...instagramChecks({ ...short, fps }, "")])).toEqual([]);
  });
  it("reads ffprobe's frame rate", () => {
    expect(parseFrameRate("30000/1001\n")).toBe(29.97);
    expect(parseFrameRate("24000/1001")).toBe(23.98);
    expect(parseFrameRate("30/1")).toBe(30);
    expect(parseFrameRate("25")).toBe(25);
    expect(parseFrameRate("0/0")).toBeNull();
    expect(parseFrameRate("")).toBeNull();
  });
});

describe("captions written within each platform's limits", () => {
  it("adds the hashtags that fit, Instagram at most 30", () => {
    const tags = Array.from({ length: 40 }, (_, i) => `tag${i}`);
    const caption = captionFor("instagram", "Bees dance", tags);
    expect(caption.startsWith("Bees dance\n\n#tag0 #tag1")).toBe(true);
    expect(caption.match(/#/g)).toHaveLength(30);
    expect(captionFor("tiktok", "x".repeat(2195), ["bees", "honey"])).toHaveLength(2195);
  });
});
