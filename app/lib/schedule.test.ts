// The scheduling rule: the soonest chosen weekday strictly after the reference date, at the default time.
import { describe, expect, it } from "vitest";
import { addDays, calendarDateIn, nextScheduleDate, parseSchedulingDays, weekdayOf, zonedTimeToInstant, type Weekday } from "./schedule";

const suggest = (last: string | null, days: Weekday[], timeZone: string, now = "2026-01-05T09:00:00Z", time: string | null = null) =>
  nextScheduleDate({ lastScheduleDate: last ? new Date(last) : null, schedulingDays: days, defaultScheduleTime: time, timeZone, now: new Date(now) });

describe("nextScheduleDate", () => {
  it("takes the next chosen weekday after the last scheduled date, never the same day", () => {
    // 2026-03-04 is a Wednesday
    expect(weekdayOf("2026-03-04")).toBe("wednesday");
    expect(suggest("2026-03-04T12:00:00Z", ["wednesday"], "UTC").date).toBe("2026-03-11");
    expect(suggest("2026-03-04T12:00:00Z", ["wednesday", "thursday"], "UTC").date).toBe("2026-03-05");
  });

  it("crosses the week boundary: Friday's last slot with Monday chosen gives the Monday after", () => {
    const s = suggest("2026-03-06T12:00:00Z", ["monday"], "UTC");
    expect(s.date).toBe("2026-03-09");
    expect(weekdayOf(s.date)).toBe("monday");
    expect(suggest("2026-03-08T12:00:00Z", ["sunday", "monday"], "UTC").date).toBe("2026-03-09"); // Sunday -> Monday
  });

  it("crosses the year boundary (and a leap day)", () => {
    expect(suggest("2025-12-31T18:00:00Z", ["thursday"], "UTC", "2025-12-01T00:00:00Z").date).toBe("2026-01-01");
    expect(suggest("2025-12-31T18:00:00Z", ["wednesday"], "UTC", "2025-12-01T00:00:00Z").date).toBe("2026-01-07");
    expect(addDays("2028-02-28", 1)).toBe("2028-02-29");
    expect(suggest("2028-02-28T12:00:00Z", ["tuesday"], "UTC", "2028-01-01T00:00:00Z").date).toBe("2028-02-29");
  });

  it("reads the last date in the creator's time zone", () => {
    // 23:30 UTC on Friday 6 March is already Saturday morning in Tokyo, still Friday afternoon in Los Angeles
    const last = "2026-03-06T23:30:00Z";
    expect(calendarDateIn(new Date(last), "Asia/Tokyo")).toBe("2026-03-07");
    expect(calendarDateIn(new Date(last), "America/Los_Angeles")).toBe("2026-03-06");
    expect(suggest(last, ["saturday", "sunday"], "Asia/Tokyo", "2026-03-01T00:00:00Z").date).toBe("2026-03-08");
    expect(suggest(last, ["saturday", "sunday"], "America/Los_Angeles", "2026-03-01T00:00:00Z").date).toBe("2026-03-07");
  });

  it("puts the default time on the local wall clock, across a daylight-saving change", () => {
    // New York moves to summer time on Sunday 8 March 2026: noon is 17:00 UTC before, 16:00 UTC after
    const before = suggest("2026-03-06T17:00:00Z", ["saturday"], "America/New_York", "2026-03-01T00:00:00Z");
    expect(before.publishAt.toISOString()).toBe("2026-03-07T17:00:00.000Z");
    const after = suggest("2026-03-07T17:00:00Z", ["sunday"], "America/New_York", "2026-03-01T00:00:00Z");
    expect(after.publishAt.toISOString()).toBe("2026-03-08T16:00:00.000Z");
    expect(zonedTimeToInstant("2026-07-01", "09:30", "Europe/Berlin").toISOString()).toBe("2026-07-01T07:30:00.000Z");
    expect(zonedTimeToInstant("2026-01-01", "09:30", "Asia/Kolkata").toISOString()).toBe("2026-01-01T04:00:00.000Z");
  });

  it("uses 12:00 unless a valid default time is saved", () => {
    expect(suggest(null, ["monday"], "UTC").time).toBe("12:00");
    expect(suggest(null, ["monday"], "UTC", undefined, "18:45").time).toBe("18:45");
    expect(suggest(null, ["monday"], "UTC", undefined, "25:00").time).toBe("12:00");
  });

  it("starts from today when the last scheduled date is in the past or missing", () => {
    // now: Monday 5 January 2026
    expect(suggest(null, ["monday"], "UTC").date).toBe("2026-01-12");
    expect(suggest(null, ["tuesday"], "UTC").date).toBe("2026-01-06");
    expect(suggest("2025-06-01T12:00:00Z", ["tuesday"], "UTC").date).toBe("2026-01-06");
  });
});

describe("parseSchedulingDays", () => {
  it("reads the saved JSON list; every day when nothing usable is saved", () => {
    expect(parseSchedulingDays('["friday","monday"]')).toEqual(["monday", "friday"]);
    expect(parseSchedulingDays(null)).toHaveLength(7);
    expect(parseSchedulingDays("[]")).toHaveLength(7);
    expect(parseSchedulingDays("not json")).toHaveLength(7);
  });
});
