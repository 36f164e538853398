import { INSTAGRAM_RULES, TIKTOK_RULES } from "~/lib/platform-rules";

const MB = 1024 * 1024;
const size = (bytes: number) => (bytes >= 1024 * MB ? `${bytes / (1024 * MB)} GB` : `${bytes / MB} MB`);
const length = (seconds: number) => (seconds >= 60 ? `${seconds / 60} minutes` : `${seconds} seconds`);

/**
 * What Reelsmith itself checks before it posts (app/lib/platform-rules.ts, from each platform's API documentation:
 * decision 216), in words: the guidance above is the spec's general advice, and the two differ (Instagram's API takes
 * Reels of 3 s to 15 min up to 300 MB), so the card says both rather than let a creator read one and meet the other.
 */
export const PLATFORM_CHECKS_SENTENCE =
  `Before posting, Reelsmith checks each platform's own limits: TikTok up to ${size(TIKTOK_RULES.maxBytes)} and the length your account allows ` +
  `(${length(TIKTOK_RULES.defaultMaxSeconds)} unless TikTok says otherwise); Instagram Reels ${length(INSTAGRAM_RULES.minSeconds)} to ` +
  `${length(INSTAGRAM_RULES.maxSeconds)}, up to ${size(INSTAGRAM_RULES.maxBytes)}.`;

// The spec's platform guidance (section 9): file sizes and lengths per platform.
export function PlatformGuidelines() {
  const rows = [
    { platform: "YouTube", rule: "Up to 128 GB per video" },
    { platform: "YouTube Shorts / TikTok", rule: "Up to 4 GB, 15 seconds to 10 minutes" },
    { platform: "Instagram Reels", rule: "Up to 4 GB, 15 to 90 seconds" },
  ];
  return (
    <section aria-label="Platform Upload Guidelines" className="space-y-3 rounded-xl border border-slate-800 bg-slate-900 p-6">
      <h2 className="text-xl font-semibold">Platform Upload Guidelines</h2>
      <ul className="space-y-2 text-sm">
        {rows.map((r) => (
          <li key={r.platform} className="flex justify-between gap-4 border-b border-slate-800 pb-2 last:border-0">
            <span className="font-medium text-slate-200">{r.platform}</span>
            <span className="text-slate-400">{r.rule}</span>
          </li>
        ))}
      </ul>
      <p className="text-xs text-slate-400">{PLATFORM_CHECKS_SENTENCE}</p>
      <p className="text-xs text-slate-400">Titles up to 100 characters; descriptions up to 4,900 and tags up to 400 characters keep you inside YouTube&apos;s limits.</p>
    </section>
  );
}
