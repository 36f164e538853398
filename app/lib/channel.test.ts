// The channel rules a creator would notice: slots fall at the wall-clock time in the channel's zone (also across a
// DST change), pasted lines become ideas, the kit becomes the video's options, the footer and hashtags end the
// description within YouTube's limit.
import { describe, expect, it } from "vitest";
import { ChannelAccountSchema, ChannelInputSchema, ChannelKitSchema, ChannelPatchSchema, channelCaption, formatSlot, ideasFromText, optionsFromKit, platformPostOptions, slotsBetween, weekStartOf, withFooter } from "./channel";

describe("slotsBetween", () => {
  it("places Tue 18:00 and Sat 10:00 in Paris at the same wall time before and after the clocks change", () => {
    const schedule = [{ day: 2, time: "18:00" }, { day: 6, time: "10:00" }];
    // 2026-10-25 is the last Sunday of October: Paris goes from +02:00 to +01:00
    const slots = slotsBetween(schedule, "Europe/Paris", Date.UTC(2026, 9, 19), Date.UTC(2026, 10, 2));
    expect(slots.map((s) => s.toISOString())).toEqual(["2026-10-20T16:00:00.000Z", "2026-10-24T08:00:00.000Z", "2026-10-27T17:00:00.000Z", "2026-10-31T09:00:00.000Z"]);
    expect(slots.map((s) => formatSlot(s, "Europe/Paris"))).toEqual(["Tue 20 Oct, 18:00", "Sat 24 Oct, 10:00", "Tue 27 Oct, 18:00", "Sat 31 Oct, 10:00"]);
  });

  it("keeps a zone ahead of UTC on its own calendar day, and nothing outside the range", () => {
    const slots = slotsBetween([{ day: 1, time: "07:30" }], "Pacific/Auckland", Date.UTC(2026, 0, 4, 18, 30), Date.UTC(2026, 0, 4, 18, 31));
    expect(slots.map((s) => s.toISOString())).toEqual(["2026-01-04T18:30:00.000Z"]); // Monday 5 January, 07:30 in Auckland
    expect(slotsBetween([], "UTC", 0, 10 ** 12)).toEqual([]);
  });

  it("starts the week on Monday 00:00 in the zone", () => {
    expect(weekStartOf(Date.UTC(2026, 10, 28, 21), "America/New_York").toISOString()).toBe("2026-11-23T05:00:00.000Z");
  });
});

describe("the channel's input", () => {
  it("refuses an unknown time zone, a slot listed twice and a bad time, naming the field", () => {
    const bad = ChannelInputSchema.safeParse({ name: "A", timeZone: "Mars/Olympus", schedule: [{ day: 2, time: "18:00" }, { day: 2, time: "18:00" }, { day: 8, time: "25:00" }] });
    expect(bad.success).toBe(false);
    expect(bad.error!.issues.map((i) => `${i.path.join(".")}: ${i.message}`)).toEqual([
      "timeZone: timeZone must be an IANA time zone, e.g. Europe/Paris.",
      "schedule.2.day: day must be 1 (Monday) to 7 (Sunday).",
      'schedule.2.time: time must be "HH:MM" (24-hour).',
      "schedule.1: Tuesday 18:00 is listed twice.",
    ]);
    expect(ChannelInputSchema.safeParse({ name: "A", schedule: [{ day: 2, time: "18:00" }, { day: 2, time: "18:00" }] }).error!.issues[0]!.message).toBe("Tuesday 18:00 is listed twice.");
  });

  it("changes only what a patch sends", () => {
    expect(ChannelPatchSchema.parse({ leadHours: 1 })).toEqual({ leadHours: 1 });
  });

  it("reads pasted lines as title | topic", () => {
    expect(ideasFromText("Whales sing | how and why\n\n  Octopus hearts  \n")).toEqual([{ title: "Whales sing", topic: "how and why" }, { title: "Octopus hearts" }]);
  });
});

describe("the kit in the video", () => {
  it("gives the idea's video the kit's format, voice, captions and music mood, and its footer and hashtags", () => {
    const kit = ChannelKitSchema.parse({ format: "9:16", duration: 30, voiceSpeed: 1.1, captionStyle: "outlined", music: true, musicMood: "calm lo-fi", musicVolume: 12, descriptionFooter: "Subscribe!", hashtags: ["ocean", "#facts"] });
    const options = optionsFromKit(kit, { title: "Whales sing", topic: "How whales sing" });
    expect(options).toMatchObject({ title: "Whales sing", format: "9:16", duration: 30, voiceSpeed: 1.1, captions: true, captionStyle: "outlined", music: true, musicVolume: 12, descriptionFooter: "Subscribe!", hashtags: ["#ocean", "#facts"], upload: false });
    expect(options.musicPrompt).toBe("calm lo-fi background music for a video about How whales sing");
    expect(ChannelKitSchema.safeParse({ hashtags: ["two words"] }).success).toBe(false);
  });

  it("ends the description with the footer and hashtags, within 5,000 characters", () => {
    expect(withFooter("About whales.", "Subscribe!", ["#ocean"])).toBe("About whales.\n\nSubscribe!\n\n#ocean");
    const long = withFooter("x".repeat(6000), "Subscribe!", ["#ocean", "#facts"]);
    expect(long.length).toBeLessThanOrEqual(5000);
    expect(long.endsWith("Subscribe!\n\n#ocean #facts")).toBe(true);
    expect(withFooter("Plain", undefined, [])).toBe("Plain");
  });
});

describe("a channel's TikTok and Instagram accounts (decision 271)", () => {
  it("a TikTok account needs a privacy level the creator chose and the Music Usage Confirmation; its options become the post's", () => {
    expect(ChannelAccountSchema.safeParse({ platform: "tiktok" }).error?.issues[0]?.message).toBe("A TikTok account needs its options: privacyLevel and consent.");
    expect(ChannelAccountSchema.safeParse({ platform: "tiktok", tiktok: { consent: true } }).error?.issues[0]?.message).toBe("Choose who can see the channel's TikTok posts.");
    expect(ChannelAccountSchema.safeParse({ platform: "tiktok", tiktok: { privacyLevel: "SELF_ONLY", consent: false } }).error?.issues[0]?.message).toBe("Agree to TikTok's Music Usage Confirmation to post.");
    expect(ChannelAccountSchema.safeParse({ platform: "youtube", tiktok: { privacyLevel: "SELF_ONLY", consent: true } }).success).toBe(false);
    // the inbox mode leaves the privacy to the creator in the TikTok app
    expect(ChannelAccountSchema.safeParse({ platform: "tiktok", tiktok: { mode: "inbox", consent: true } }).success).toBe(true);
    const account = ChannelAccountSchema.parse({ platform: "tiktok", tiktok: { privacyLevel: "FOLLOWER_OF_CREATOR", allowDuet: true, consent: true } });
    expect(platformPostOptions("tiktok", account.tiktok)).toEqual({ mode: "direct", privacyLevel: "FOLLOWER_OF_CREATOR", disableComment: true, disableDuet: false, disableStitch: true });
    expect(platformPostOptions("instagram", { shareToFeed: false })).toEqual({ shareToFeed: false, thumbOffsetMs: null });
    expect(platformPostOptions("instagram", null)).toEqual({ shareToFeed: true, thumbOffsetMs: null });
  });

  it("the caption is the title, the footer and the hashtags that fit the platform's 2,200 characters", () => {
    const kit = ChannelKitSchema.parse({ descriptionFooter: "New facts every week.", hashtags: ["ocean", "#facts"] });
    expect(channelCaption("tiktok", "Whales sing", kit)).toBe("Whales sing\n\nNew facts every week.\n\n#ocean #facts");
    const long = channelCaption("instagram", "Whales sing", { descriptionFooter: "x".repeat(990), hashtags: [] });
    expect(long.startsWith("Whales sing\n\nxxx")).toBe(true);
    // the longest title, footer and hashtags a kit allows stay within the limit
    const full = channelCaption("tiktok", "t".repeat(200), { descriptionFooter: "f".repeat(1000), hashtags: Array.from({ length: 15 }, (_, i) => `#tag${i}`.padEnd(51, "x")) });
    expect(full.length).toBeLessThanOrEqual(2200);
    expect(full).toMatch(/#tag0x+ #tag1x+/);
  });
});
