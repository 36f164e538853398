// The upload's pre-flight check: what passes, what YouTube would refuse (blocking, with its reason) and what only
// needs attention, and the one-click fixes' arithmetic.
import { describe, expect, it } from "vitest";
import { blockingItems, preflightChecks, trimTags, trimToBytes, youtubeTagsLength, type PreflightInput } from "./preflight";

const now = new Date("2026-11-26T12:00:00Z");
const ready: PreflightInput = {
  video: { width: 1080, height: 1920, durationSeconds: 58, loudnessLufs: -14.1, truePeakDbtp: -1.6, captionCueCount: 12 },
  title: "Bees and Their Dances",
  description: "How honeybees talk.",
  tags: ["bees", "nature"],
  publishAt: null,
  thumbnail: { mimeType: "image/png", bytes: 300_000 },
  sceneChapters: [],
  now,
};
const item = (input: PreflightInput, id: string) => preflightChecks(input).find((i) => i.id === id)!;

describe("the pre-flight check", () => {
  it("passes a ready Short on every item", () => {
    const items = preflightChecks(ready);
    expect(items.map((i) => i.id)).toEqual(["loudness", "duration", "resolution", "title", "description", "tags", "thumbnail", "captions", "chapters", "publish-time"]);
    expect(items.filter((i) => i.status === "fail")).toEqual([]);
    expect(item(ready, "loudness").detail).toBe("-14.1 LUFS, true peak -1.6 dBTP (YouTube's target: -14 LUFS, at most -1 dBTP)");
    expect(item(ready, "duration").detail).toMatch(/a Short/);
  });

  it("blocks a title over 100 characters and a past publish time, each with its reason and fix", () => {
    const items = preflightChecks({ ...ready, title: "B".repeat(120), publishAt: "2026-11-26T11:00:00Z" });
    const blocking = blockingItems(items);
    expect(blocking.map((i) => i.id)).toEqual(["title", "publish-time"]);
    expect(blocking[0]).toMatchObject({ detail: "The title is 120 characters; YouTube takes at most 100.", fix: { action: "shorten-title" } });
    expect(blocking[1]).toMatchObject({ detail: "The scheduled time is in the past. Pick a later date or time.", fix: { action: "publish-now" } });
  });

  it("counts the description in bytes and the tags as YouTube does, and blocks markup", () => {
    const emoji = "🐝".repeat(1300); // 5,200 bytes in 2,600 UTF-16 units
    expect(item({ ...ready, description: emoji }, "description")).toMatchObject({ status: "fail", blocks: true, detail: "The description is 5,200 bytes; YouTube takes at most 5,000." });
    expect(Buffer.byteLength(trimToBytes(emoji))).toBeLessThanOrEqual(5000);
    expect(item({ ...ready, title: "Bees <3" }, "title")).toMatchObject({ status: "fail", blocks: true, fix: { action: "remove-angle-brackets" } });
    expect(youtubeTagsLength(["honey bee", "hive"])).toBe(11 + 1 + 4);
    const tags = Array.from({ length: 60 }, (_, i) => `tag number ${i}`);
    expect(item({ ...ready, tags }, "tags")).toMatchObject({ status: "fail", blocks: true });
    expect(youtubeTagsLength(trimTags(tags))).toBeLessThanOrEqual(500);
  });

  it("flags what YouTube would only degrade without blocking: loudness, a long vertical video, the thumbnail, captions, chapters", () => {
    const quiet = { ...ready.video!, loudnessLufs: -21.8, truePeakDbtp: -7.4 };
    expect(item({ ...ready, video: quiet }, "loudness")).toMatchObject({ status: "fail", blocks: false, fix: { action: "render-again" } });
    expect(item({ ...ready, video: { ...ready.video!, durationSeconds: 200 } }, "duration")).toMatchObject({ status: "fail", blocks: false });
    expect(item({ ...ready, thumbnail: { mimeType: "image/webp", bytes: 1000 } }, "thumbnail")).toMatchObject({ status: "fail", blocks: false });
    expect(item({ ...ready, thumbnail: { mimeType: "image/jpeg", bytes: 3 * 1024 * 1024 } }, "thumbnail").detail).toBe("The thumbnail is 3.0 MB; YouTube takes at most 2 MB.");
    expect(item({ ...ready, video: { ...ready.video!, captionCueCount: 0 } }, "captions")).toMatchObject({ status: "fail", blocks: false });
    expect(item({ ...ready, captionsAllowed: false }, "captions")).toMatchObject({ status: "fail", blocks: false, detail: expect.stringContaining("connect YouTube again") });
    const chapters = [{ startSeconds: 0, title: "A" }, { startSeconds: 20, title: "B" }, { startSeconds: 40, title: "C" }];
    expect(item({ ...ready, sceneChapters: chapters }, "chapters")).toMatchObject({ status: "fail", blocks: false, fix: { action: "use-scene-chapters" } });
    expect(item({ ...ready, description: "0:00 A\n0:04 B\n0:30 C" }, "chapters")).toMatchObject({ status: "fail", blocks: false, fix: { action: "remove-chapters" } });
    expect(blockingItems(preflightChecks({ ...ready, video: quiet, thumbnail: null }))).toEqual([]);
  });

  it("blocks an upload with no video", () => {
    expect(blockingItems(preflightChecks({ ...ready, video: null })).map((i) => i.id)).toEqual(["duration", "resolution"]);
  });
});
