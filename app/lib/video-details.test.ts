import { describe, expect, it } from "vitest";
import { VideoDetailsSchema, durationIsValid, invalidDurationMessage } from "./video-details";

describe("video details", () => {
  it("follows each format's duration range", () => {
    expect(durationIsValid("16:9", 300)).toBe(true);
    expect(durationIsValid("16:9", 240)).toBe(false);
    expect(durationIsValid("9:16", 180)).toBe(true);
    expect(durationIsValid("9:16", 185)).toBe(false);
    expect(durationIsValid("9:16-tiktok", 3600)).toBe(true);
    expect(invalidDurationMessage("9:16")).toBe("Duration must be between 5 and 180 for this format.");
  });

  it("names the field that is wrong", () => {
    const missing = VideoDetailsSchema.safeParse({ title: " ", topic: "x", resolution: "16:9", duration: 300 });
    expect(missing.success).toBe(false);
    expect(missing.error?.issues[0]?.path).toEqual(["title"]);
    expect(missing.error?.issues[0]?.message).toBe("Please fill in both title and topic fields.");

    const duration = VideoDetailsSchema.safeParse({ title: "a", topic: "b", resolution: "16:9", duration: 30 });
    expect(duration.error?.issues[0]?.path).toEqual(["duration"]);
    expect(duration.error?.issues[0]?.message).toBe("Duration must be between 300 and 3600 for this format.");
  });
});
