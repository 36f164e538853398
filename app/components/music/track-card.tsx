// One card of the 'Generated Music Tracks' grid (spec section 2): title ('Untitled Track' fallback), prompt,
// delete; a track that cannot play shows a disabled button (spinner, 'Error' or 'Waiting') and its badge; a
// completed one shows play/pause, m:ss elapsed / total, mute, 'Complete', a seek slider (disabled until the
// duration is known) and its own volume slider.
import { Loader2, Pause, Play, Trash2, Volume2, VolumeX } from "lucide-react";
import { Button } from "~/components/ui/button";
import { Slider } from "~/components/ui/slider";
import { formatTrackTime, STATUS_BADGES, trackTitle, unplayableButton, type MusicTrack } from "~/lib/music";
import { cn } from "~/lib/utils";
import type { TrackTime } from "./use-track-player";

const BADGE_STYLES: Record<MusicTrack["status"], string> = {
  completed: "border-emerald-700 bg-emerald-950 text-emerald-300",
  processing: "border-sky-700 bg-sky-950 text-sky-300",
  pending: "border-amber-700 bg-amber-950 text-amber-300",
  error: "border-red-700 bg-red-950 text-red-300",
};

function Badge({ status }: { status: MusicTrack["status"] }) {
  return (
    <span data-testid="track-badge" className={cn("rounded-full border px-2 py-0.5 text-xs font-medium", BADGE_STYLES[status])}>
      {status === "completed" ? "Complete" : STATUS_BADGES[status]}
    </span>
  );
}

export function TrackCard(props: {
  track: MusicTrack;
  playing: boolean;
  time: TrackTime | undefined;
  muted: boolean;
  volume: number;
  deleting: boolean;
  onToggle: () => void;
  onSeek: (seconds: number) => void;
  onToggleMute: () => void;
  onVolume: (percent: number) => void;
  onDelete: () => void;
}) {
  const { track, playing, time, muted, volume } = props;
  const title = trackTitle(track);
  const duration = time?.duration ?? null;
  const total = duration ?? track.duration;
  const unplayable = unplayableButton(track.status);

  return (
    <article aria-label={title} data-testid="music-track" data-status={track.status} className="space-y-3 rounded-xl border border-slate-800 bg-slate-900 p-4">
      <div className="flex items-start justify-between gap-2">
        <div className="min-w-0">
          <h3 className="truncate font-semibold">{title}</h3>
          <p className="line-clamp-2 text-sm text-slate-400">{track.prompt}</p>
        </div>
        <Button variant="ghost" size="icon" aria-label={`Delete ${title}`} disabled={props.deleting} onClick={props.onDelete}>
          <Trash2 className="h-4 w-4" aria-hidden />
        </Button>
      </div>

      {track.status === "completed" ? (
        <div className="space-y-3">
          <div className="flex items-center gap-3">
            <Button size="icon" aria-label={playing ? `Pause ${title}` : `Play ${title}`} onClick={props.onToggle}>
              {playing ? <Pause className="h-4 w-4" aria-hidden /> : <Play className="h-4 w-4" aria-hidden />}
            </Button>
            <span className="font-mono text-sm tabular-nums" data-testid="track-time">
              {formatTrackTime(time?.current ?? 0)} / {formatTrackTime(total)}
            </span>
            <Button variant="ghost" size="icon" aria-label={muted ? `Unmute ${title}` : `Mute ${title}`} aria-pressed={muted} onClick={props.onToggleMute}>
              {muted ? <VolumeX className="h-4 w-4" aria-hidden /> : <Volume2 className="h-4 w-4" aria-hidden />}
            </Button>
            <span className="ml-auto">
              <Badge status="completed" />
            </span>
          </div>
          <Slider
            aria-label={`Seek ${title}`}
            min={0}
            max={duration ?? 1}
            step={0.1}
            value={[Math.min(time?.current ?? 0, duration ?? 1)]}
            disabled={duration === null}
            onValueChange={([seconds]) => props.onSeek(seconds ?? 0)}
          />
          <div className="flex items-center gap-3">
            <Volume2 className="h-4 w-4 text-slate-400" aria-hidden />
            <Slider aria-label={`Volume of ${title}`} min={0} max={100} step={1} value={[volume]} onValueChange={([v]) => props.onVolume(v ?? 0)} />
            <span className="w-12 text-right text-sm tabular-nums text-slate-300">{volume}%</span>
          </div>
        </div>
      ) : (
        <div className="space-y-2">
          <div className="flex items-center gap-3">
            <Button size="sm" variant="outline" disabled aria-label={`${title} is not ready`}>
              {unplayable === "spinner" ? <Loader2 className="h-4 w-4 animate-spin" aria-hidden /> : unplayable}
            </Button>
            <Badge status={track.status} />
          </div>
          {track.status === "error" && track.error ? (
            <p role="alert" className="text-sm text-red-300">
              {track.error}
            </p>
          ) : null}
        </div>
      )}
    </article>
  );
}
