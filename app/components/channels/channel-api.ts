// The channel pages' calls (issue 52): /api/v1/channels with the session, and a problem's words for a toast.
// The views are the server's own (app/server/channels.server.ts), as /api/v1 sends them: types only.
export type { ChannelCalendar as Calendar, CalendarWeek, ChannelView, IdeaView } from "~/server/channels.server";

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

/** An idea's post on one platform (IdeaView.posts), by its state. */
export const POST_STATE_CLASS: Record<string, string> = {
  posting: "text-violet-200",
  processing: "text-violet-200",
  published: "text-emerald-300",
  sent_to_inbox: "text-emerald-200",
  failed: "text-red-300",
  cancelled: "text-slate-400",
  not_posted: "text-amber-300",
};
