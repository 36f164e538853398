import { Pause, Play, Square } from "lucide-react";
import { useEffect, useRef, useState } from "react";

/**
 * The storyboard's player (in the page header): plays the scenes' voiceovers in order, skips scenes without audio, moves on after an
 * audio error, stops at the end. Play/pause toggles; stop resets to the first scene.
 */
export function SequentialPlayer(props: { audioUrls: (string | null)[]; onSceneChange: (index: number | null) => void }) {
  const audio = useRef<HTMLAudioElement | null>(null);
  const [index, setIndex] = useState<number | null>(null);
  const [playing, setPlaying] = useState(false);
  const { audioUrls, onSceneChange } = props;

  const nextWithAudio = (from: number) => {
    for (let i = from; i < audioUrls.length; i++) if (audioUrls[i]) return i;
    return null;
  };

  useEffect(() => onSceneChange(playing ? index : null), [index, playing, onSceneChange]);

  useEffect(() => {
    const element = audio.current;
    if (!element || index === null) return;
    const url = audioUrls[index];
    if (!url) return;
    if (!element.src.endsWith(url)) element.src = url;
    // A broken file fires the element's error event (which moves on); a pause or a new src interrupting play()
    // is no error; the browser refusing to play without a gesture stops playback.
    if (playing) element.play().catch((e: DOMException) => e.name === "NotAllowedError" && setPlaying(false));
    else element.pause();
  }, [index, playing, audioUrls]);

  function advance() {
    const next = index === null ? null : nextWithAudio(index + 1);
    if (next === null) stop();
    else setIndex(next);
  }

  function toggle() {
    if (playing) return setPlaying(false);
    if (index === null) {
      const first = nextWithAudio(0);
      if (first === null) return;
      setIndex(first);
    }
    setPlaying(true);
  }

  function stop() {
    audio.current?.pause();
    setPlaying(false);
    setIndex(null);
  }

  return (
    // in the page's header, not floating: a floating pill covered scene text on desktop and phone (docs/decisions/080)
    <div role="group" aria-label="Play all scenes" className="flex w-fit items-center gap-3 rounded-full border border-slate-700 bg-slate-900 px-3 py-1.5">
      <audio ref={audio} onEnded={advance} onError={advance} preload="auto" />
      <button type="button" onClick={toggle} className="rounded-full bg-brand p-2 text-white" aria-label={playing ? "Pause storyboard audio" : "Play storyboard audio"}>
        {playing ? <Pause className="h-4 w-4" aria-hidden /> : <Play className="h-4 w-4" aria-hidden />}
      </button>
      <button type="button" onClick={stop} className="rounded-full p-2 hover:bg-slate-800" aria-label="Stop storyboard audio">
        <Square className="h-4 w-4" aria-hidden />
      </button>
      <span className="min-w-28 text-sm text-slate-300" aria-live="polite">
        {index === null ? "Play all scenes" : `Scene ${index + 1} of ${audioUrls.length}`}
      </span>
    </div>
  );
}
