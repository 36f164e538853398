// The scheduling rule (spec section 9): the next suggested publish date is the soonest chosen weekday strictly
// after the reference date, at the default time. The reference is the last scheduled date, or today when that
// lies in the past (a suggestion before today could not be scheduled: the date input's minimum is now).
// Calendar dates are those of the creator's time zone; pure, so the browser and the server agree.
import { DEFAULT_SCHEDULE_TIME, WEEKDAYS } from "./constants";

export type Weekday = (typeof WEEKDAYS)[number];
/** A calendar date, "YYYY-MM-DD". */
export type CalendarDate = string;

const TIME = /^([01]\d|2[0-3]):([0-5]\d)$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The saved `schedulingDays` JSON text as weekday names; every day when it is missing, empty or unreadable. */
export function parseSchedulingDays(text: string | null | undefined): Weekday[] {
  if (!text) return [...WEEKDAYS];
  try {
    const parsed: unknown = JSON.parse(text);
    if (!Array.isArray(parsed)) return [...WEEKDAYS];
    const days = WEEKDAYS.filter((day) => parsed.some((p) => typeof p === "string" && p.toLowerCase() === day));
    return days.length ? days : [...WEEKDAYS];
  } catch {
    return [...WEEKDAYS];
  }
}

/** "HH:MM" when valid, else the spec's default time (12:00). */
export function scheduleTimeOrDefault(time: string | null | undefined): string {
  return time && TIME.test(time) ? time : DEFAULT_SCHEDULE_TIME;
}

type Parts = { year: number; month: number; day: number; hour: number; minute: number; second: number };

function wallClock(instant: number, timeZone: string): Parts {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone,
    hourCycle: "h23",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
  }).formatToParts(new Date(instant));
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  return { year: get("year"), month: get("month"), day: get("day"), hour: get("hour"), minute: get("minute"), second: get("second") };
}

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

/** The calendar date of an instant in a time zone (IANA name, e.g. "Europe/Berlin"). */
export function calendarDateIn(instant: Date, timeZone: string): CalendarDate {
  const p = wallClock(instant.getTime(), timeZone);
  return `${pad(p.year, 4)}-${pad(p.month)}-${pad(p.day)}`;
}

function parseDate(date: CalendarDate): { year: number; month: number; day: number } {
  const match = DATE.exec(date);
  if (!match) throw new Error(`Not a calendar date (YYYY-MM-DD): ${date}`);
  return { year: Number(match[1]), month: Number(match[2]), day: Number(match[3]) };
}

/** The date `days` later (calendar arithmetic: no time zone or daylight saving involved). */
export function addDays(date: CalendarDate, days: number): CalendarDate {
  const { year, month, day } = parseDate(date);
  const next = new Date(Date.UTC(year, month - 1, day + days));
  return `${pad(next.getUTCFullYear(), 4)}-${pad(next.getUTCMonth() + 1)}-${pad(next.getUTCDate())}`;
}

/** The weekday name of a calendar date. */
export function weekdayOf(date: CalendarDate): Weekday {
  const { year, month, day } = parseDate(date);
  const sundayFirst = new Date(Date.UTC(year, month - 1, day)).getUTCDay();
  return WEEKDAYS[(sundayFirst + 6) % 7]!;
}

/** The instant at which the wall clock in `timeZone` shows `date` `time` (the later one when DST repeats an hour). */
export function zonedTimeToInstant(date: CalendarDate, time: string, timeZone: string): Date {
  const { year, month, day } = parseDate(date);
  const match = TIME.exec(time);
  if (!match) throw new Error(`Not a time (HH:MM): ${time}`);
  const asUtc = Date.UTC(year, month - 1, day, Number(match[1]), Number(match[2]));
  const offsetAt = (instant: number) => {
    const p = wallClock(instant, timeZone);
    return Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second) - instant;
  };
  const first = asUtc - offsetAt(asUtc);
  const second = asUtc - offsetAt(first);
  return new Date(Math.max(first, second));
}

export type ScheduleSuggestion = { date: CalendarDate; time: string; publishAt: Date };

/**
 * The next suggested publish slot: the soonest chosen weekday strictly after the reference date (the last
 * scheduled date, or today when that is earlier or unknown), at the default time, in `timeZone`.
 */
export function nextScheduleDate(input: {
  lastScheduleDate: Date | null;
  schedulingDays: readonly Weekday[];
  defaultScheduleTime?: string | null;
  timeZone: string;
  now: Date;
}): ScheduleSuggestion {
  const days = input.schedulingDays.length ? input.schedulingDays : WEEKDAYS;
  const today = calendarDateIn(input.now, input.timeZone);
  const last = input.lastScheduleDate ? calendarDateIn(input.lastScheduleDate, input.timeZone) : null;
  const reference = last && last > today ? last : today;
  const time = scheduleTimeOrDefault(input.defaultScheduleTime);
  for (let offset = 1; offset <= 7; offset++) {
    const date = addDays(reference, offset);
    if (days.includes(weekdayOf(date))) return { date, time, publishAt: zonedTimeToInstant(date, time, input.timeZone) };
  }
  // unreachable: seven consecutive days hold every weekday
  throw new Error("No scheduling day chosen");
}
