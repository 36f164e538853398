// "Play sample" beside a voice picker (issue 48): a few seconds of the chosen offline voice reading its language's
// fixed sentence. The first play of a voice waits while the worker reads it (a second or two; the neural voice
// loads its model first); later plays stream the stored sample. Cloud voices have no sample: nothing is shown.
import { Pause, Play } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { Button } from "~/components/ui/button";
import { hasVoiceSample, voiceSampleUrl } from "~/lib/voice-samples";

type State = "idle" | "loading" | "playing" | "error";

export function VoiceSampleButton({ voiceId, voiceName }: { voiceId: string | null | undefined; voiceName?: string }) {
  const audio = useRef<HTMLAudioElement>(null);
  const [state, setState] = useState<State>("idle");

  // another voice chosen: stop the one playing
  useEffect(() => {
    audio.current?.pause();
    setState("idle");
  }, [voiceId]);

  if (!hasVoiceSample(voiceId)) return null;
  const url = voiceSampleUrl(voiceId);

  function toggle() {
    const el = audio.current;
    if (!el) return;
    if (state === "playing" || state === "loading") {
      el.pause();
      setState("idle");
      return;
    }
    if (el.getAttribute("src") !== url) el.src = url;
    else el.currentTime = 0;
    setState("loading");
    el.play().catch(() => setState((s) => (s === "loading" ? "error" : s)));
  }

  const label = state === "loading" ? "Making the sample..." : state === "playing" ? "Stop sample" : "Play sample";
  return (
    <span className="flex flex-wrap items-center gap-2">
      <Button type="button" variant="outline" size="sm" onClick={toggle} aria-label={`${label}${voiceName ? ` of ${voiceName}` : ""}`} data-voice-sample-button>
        {state === "playing" ? <Pause className="h-4 w-4" aria-hidden /> : <Play className="h-4 w-4" aria-hidden />}
        {label}
      </Button>
      <audio
        ref={audio}
        preload="none"
        data-voice-sample
        onPlaying={() => setState("playing")}
        onEnded={() => setState("idle")}
        onError={() => setState("error")}
      />
      {state === "error" ? (
        <span role="alert" className="text-xs text-red-400">
          The sample could not be played. Try again in a moment.
        </span>
      ) : null}
    </span>
  );
}
