// The video's facts from its scenes (issue 50): how much of it moves (clips, AI clips) and how much is stills, as
// a bar and in seconds, and how many scenes passed the check against what is said.
import { useQuery } from "@tanstack/react-query";
import { Clapperboard, ScanEye } from "lucide-react";
import { apiGet } from "~/lib/api-client";
import type { VideoFacts } from "~/lib/motion-share";

const secondsText = (s: number) => `${Number.isInteger(s) ? s : s.toFixed(1)} s`;

export function VideoMotionFacts() {
  const facts = useQuery({ queryKey: ["video-facts"], queryFn: () => apiGet<{ facts: VideoFacts }>("/api/video-facts") }).data?.facts;
  if (!facts || facts.motion.totalSeconds <= 0) return null;
  const { motion, sceneCheck } = facts;
  const width = (s: number) => `${(100 * s) / motion.totalSeconds}%`;
  return (
    <div className="space-y-2 text-sm text-slate-300">
      <div className="flex items-start gap-2" data-testid="video-motion">
        <Clapperboard className="mt-0.5 h-4 w-4 shrink-0" aria-hidden />
        <div className="w-full max-w-md space-y-1">
          <p>
            Moving: {motion.movingPercent}% of the video{" "}
            <span className="text-slate-400">
              (AI clips {secondsText(motion.aiClipSeconds)}, clips {secondsText(motion.clipSeconds)}, stills {secondsText(motion.stillSeconds)})
            </span>
          </p>
          <div className="flex h-2 w-full overflow-hidden rounded-full bg-slate-800" aria-hidden>
            <div className="bg-fuchsia-500" style={{ width: width(motion.aiClipSeconds) }} />
            <div className="bg-sky-500" style={{ width: width(motion.clipSeconds) }} />
            <div className="bg-slate-600" style={{ width: width(motion.stillSeconds) }} />
          </div>
        </div>
      </div>
      {sceneCheck.checked > 0 ? (
        <p className="flex items-start gap-2" data-testid="video-scene-check">
          <ScanEye className="mt-0.5 h-4 w-4 shrink-0" aria-hidden />
          <span>
            Scenes that show what is said: {sceneCheck.passed} of {sceneCheck.checked} checked
            {sceneCheck.checked < sceneCheck.scenes ? <span className="text-slate-400"> ({sceneCheck.scenes - sceneCheck.checked} of {sceneCheck.scenes} not checked)</span> : null}
          </span>
        </p>
      ) : null}
    </div>
  );
}
