// How long the scene split has been running, counted on the page, and what to expect: a few seconds offline,
// up to a minute or two with a cloud writer (the old fixed "1-2 minutes" was not so for the offline writer).
import { useEffect, useState } from "react";
import { formatWaited } from "./storyboard-view";

export function SplitTimer({ startedAt }: { startedAt: string | null }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  const since = startedAt ? Date.parse(startedAt) : NaN;
  return (
    <p className="text-sm text-slate-400" data-testid="split-timer">
      {Number.isFinite(since) ? `Running for ${formatWaited((now - since) / 1000)}. ` : ""}
      The offline writer takes a few seconds; Google Gemini up to a minute or two.
    </p>
  );
}
