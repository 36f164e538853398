// The spec's video details (title, topic, format, duration) and their rules, for the browser and the server.
import { z } from "zod";
import { DURATION_RULES, RESOLUTIONS, type ResolutionValue } from "./video-format";

export const MISSING_INFORMATION = { title: "Missing Information", description: "Please fill in both title and topic fields." };

export function invalidDurationMessage(resolution: ResolutionValue): string {
  const { min, max } = DURATION_RULES[resolution];
  return `Duration must be between ${min} and ${max} for this format.`;
}

export function durationIsValid(resolution: ResolutionValue, duration: number): boolean {
  const { min, max } = DURATION_RULES[resolution];
  return Number.isFinite(duration) && duration >= min && duration <= max;
}

export const VideoDetailsSchema = z
  .object({
    title: z.string().trim().min(1, MISSING_INFORMATION.description).max(200, "Title must be at most 200 characters."),
    topic: z.string().trim().min(1, MISSING_INFORMATION.description).max(5000, "Topic must be at most 5000 characters."),
    resolution: z.enum(RESOLUTIONS, { message: `Format must be one of ${RESOLUTIONS.join(", ")}.` }),
    duration: z.coerce.number({ message: "Duration must be a number of seconds." }).int("Duration must be whole seconds."),
  })
  .superRefine((details, ctx) => {
    if (!durationIsValid(details.resolution, details.duration)) {
      ctx.addIssue({ code: "custom", path: ["duration"], message: invalidDurationMessage(details.resolution) });
    }
  });

export type VideoDetails = z.infer<typeof VideoDetailsSchema>;

/** Seconds shown as "5 min", "30 sec" or "1 min 30 sec". */
export function formatDuration(seconds: number): string {
  const m = Math.floor(seconds / 60);
  const s = seconds % 60;
  if (!m) return `${s} sec`;
  return s ? `${m} min ${s} sec` : `${m} min`;
}
