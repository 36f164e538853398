// The preview's controls, under the picture rather than over it: the Player's own controls sat on top of the
// bottom caption (vertical videos caption near the bottom), hiding both. Play/pause, the time, and a seek bar.
import type { PlayerRef } from "@remotion/player";
import { Pause, Play } from "lucide-react";
import { useEffect, useState, type RefObject } from "react";

const clock = (seconds: number) => `${Math.floor(seconds / 60)}:${String(Math.floor(seconds % 60)).padStart(2, "0")}`;

export function PreviewControls({ player, durationInFrames, fps }: { player: RefObject<PlayerRef | null>; durationInFrames: number; fps: number }) {
  const [frame, setFrame] = useState(0);
  const [playing, setPlaying] = useState(false);
  useEffect(() => {
    const p = player.current;
    if (!p) return;
    const onFrame = (e: { detail: { frame: number } }) => setFrame(e.detail.frame);
    const onPlay = () => setPlaying(true);
    const onPause = () => setPlaying(false);
    p.addEventListener("frameupdate", onFrame);
    p.addEventListener("play", onPlay);
    p.addEventListener("pause", onPause);
    p.addEventListener("ended", onPause);
    return () => {
      p.removeEventListener("frameupdate", onFrame);
      p.removeEventListener("play", onPlay);
      p.removeEventListener("pause", onPause);
      p.removeEventListener("ended", onPause);
    };
  }, [player]);
  const last = Math.max(0, durationInFrames - 1);
  return (
    <div className="mt-2 flex items-center gap-3" role="group" aria-label="Preview controls">
      <button
        type="button"
        className="rounded-full bg-brand p-2 text-white"
        aria-label={playing ? "Pause preview" : "Play preview"}
        onClick={() => player.current?.toggle()}
      >
        {playing ? <Pause className="h-4 w-4" aria-hidden /> : <Play className="h-4 w-4" aria-hidden />}
      </button>
      <input
        type="range"
        min={0}
        max={last}
        value={Math.min(frame, last)}
        aria-label="Preview position"
        className="min-w-0 flex-1 accent-violet-500"
        onChange={(e) => {
          const to = Number(e.target.value);
          player.current?.seekTo(to);
          setFrame(to);
        }}
      />
      <span className="shrink-0 font-mono text-xs text-slate-400">
        {clock(frame / fps)} / {clock(durationInFrames / fps)}
      </span>
    </div>
  );
}
