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
      <p className="text-xs text-slate-400">Titles up to 100 characters; descriptions up to 4,900 and tags up to 400 characters keep you inside YouTube&apos;s limits.</p>
    </section>
  );
}
