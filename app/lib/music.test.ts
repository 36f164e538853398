import { describe, expect, it } from "vitest";
import { BackgroundMusicSchema, formatTrackTime, generateButtonLabel, GenerateMusicSchema, MusicVolumeSchema, trackCounts, trackTitle, unplayableButton } from "./music";

describe("the Music screen's rules", () => {
  it("labels the button 'Generate N Track(s)'", () => {
    expect(generateButtonLabel(1)).toBe("Generate 1 Track");
    expect(generateButtonLabel(5)).toBe("Generate 5 Tracks");
  });

  it("shows times as m:ss", () => {
    expect(formatTrackTime(0)).toBe("0:00");
    expect(formatTrackTime(7.9)).toBe("0:07");
    expect(formatTrackTime(125)).toBe("2:05");
    expect(formatTrackTime(null)).toBe("0:00");
    expect(formatTrackTime(Number.NaN)).toBe("0:00");
  });

  it("falls back to 'Untitled Track' and counts tracks by status", () => {
    expect(trackTitle({ title: "  " })).toBe("Untitled Track");
    expect(trackTitle({ title: null })).toBe("Untitled Track");
    expect(trackCounts([{ status: "completed" }, { status: "pending" }, { status: "processing" }, { status: "pending" }])).toEqual({
      completed: 1,
      processing: 1,
      pending: 2,
      error: 0,
    });
  });

  it("gives a track that cannot play a spinner, 'Error' or 'Waiting'", () => {
    expect(unplayableButton("processing")).toBe("spinner");
    expect(unplayableButton("pending")).toBe("spinner");
    expect(unplayableButton("error")).toBe("Error");
    expect(unplayableButton("draft")).toBe("Waiting");
  });
});

describe("request schemas", () => {
  it("trims the prompt and accepts 1 to 5 tracks", () => {
    expect(GenerateMusicSchema.parse({ prompt: "  lofi ", trackCount: 3 })).toEqual({ prompt: "lofi", trackCount: 3 });
    expect(GenerateMusicSchema.safeParse({ prompt: " ", trackCount: 1 }).error?.issues[0]?.message).toBe("Please enter a music prompt to generate tracks.");
    expect(GenerateMusicSchema.safeParse({ prompt: "x", trackCount: 0 }).success).toBe(false);
    expect(GenerateMusicSchema.safeParse({ prompt: "x", trackCount: 2.5 }).success).toBe(false);
  });

  it("takes volumes from 0 to 100", () => {
    expect(MusicVolumeSchema.parse({ volume: 0 })).toEqual({ volume: 0 });
    expect(MusicVolumeSchema.safeParse({ volume: 101 }).success).toBe(false);
    expect(BackgroundMusicSchema.parse({ volumeLevel: 10 })).toEqual({ volumeLevel: 10 });
    expect(BackgroundMusicSchema.safeParse({ volumeLevel: -1 }).success).toBe(false);
  });
});
