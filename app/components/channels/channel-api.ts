// The channel pages' calls (issue 52): /api/v1/channels with the session, and a problem's words for a toast.
import type { ChannelKit, ScheduleSlot } from "~/lib/channel";

export type ChannelView = {
  id: string;
  name: string;
  timeZone: string;
  kit: ChannelKit;
  schedule: ScheduleSlot[];
  approval: "manual" | "auto";
  leadHours: number;
  paused: boolean;
  accounts: { platform: string; connectionRef: string; label: string; connected: boolean }[];
  counts: { queued: number; making: number; ready: number; approved: number; published: number; failed: number };
};
export type IdeaView = {
  id: string;
  title: string;
  topic: string;
  status: string;
  slotAt: string | null;
  slotLabel: string | null;
  stateLabel: string;
  late: boolean;
  videoPage: string | null;
  youtubeUrl: string | null;
};
export type CalendarWeek = { weekOf: string; label: string; slots: { at: string; label: string; past: boolean; idea: IdeaView | null; stateLabel: string }[] };
export type Calendar = { channel: ChannelView; weeks: CalendarWeek[]; unscheduled: IdeaView[] };

/** The `detail` of an RFC 9457 problem inside an ApiError's message, or the message. */
export function problemText(error: unknown): string {
  const body = (error instanceof Error ? error.message : String(error)).replace(/^\d{3}: /, "");
  try {
    const parsed = JSON.parse(body) as { detail?: string; field?: string | null };
    return parsed.detail ? `${parsed.detail}${parsed.field ? ` (${parsed.field})` : ""}` : body;
  } catch {
    return body;
  }
}

export const STATE_CLASS: Record<string, string> = {
  queued: "border-slate-600 text-slate-300",
  making: "border-sky-500/60 text-sky-200",
  ready: "border-amber-400/70 text-amber-200",
  approved: "border-emerald-500/60 text-emerald-200",
  publishing: "border-violet-400/60 text-violet-200",
  published: "border-emerald-400 text-emerald-300",
  failed: "border-red-500/70 text-red-300",
};
