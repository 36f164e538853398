import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Copy, Download, Loader2, Music } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { TrackCard } from "~/components/music/track-card";
import { useTrackPlayer } from "~/components/music/use-track-player";
import { videoFileName } from "~/components/render/rendered-video";
import { Button } from "~/components/ui/button";
import { Label } from "~/components/ui/label";
import { Slider } from "~/components/ui/slider";
import { Textarea } from "~/components/ui/textarea";
import { useProgressEvents } from "~/hooks/use-progress-events";
import { toast } from "~/hooks/use-toast";
import { apiGet, apiRequest, serverMessage } from "~/lib/api-client";
import { MUSIC, POLLING_MS } from "~/lib/constants";
import { applyingMessage, generateButtonLabel, MAX_MUSIC_PROMPT_CHARS, musicAddedMessage, trackCounts, type MusicTrack } from "~/lib/music";
import { requireUserId } from "~/server/auth.server";
import { prisma } from "~/core/db.server";
import { getCurrentProject } from "~/core/projects.server";
import { pageMeta } from "~/lib/meta";

export const meta: MetaFunction = () => pageMeta("Add Background Music · Reelsmith");

export async function loader({ request }: LoaderFunctionArgs) {
  const project = await getCurrentProject(await requireUserId(request));
  if (!project) return { hasProject: false, title: null, volume: MUSIC.defaultVolume, mixedVideoUrl: null };
  const latest = await prisma.renderedVideo.findFirst({
    where: { projectId: project.id, status: "completed", videoUrl: { not: null } },
    orderBy: { createdAt: "desc" },
    select: { videoUrl: true, baseVideoId: true },
  });
  return {
    hasProject: true,
    title: project.title,
    volume: project.musicVolume,
    // the latest video is a mix made here: show it as the 'Video with Background Music'
    mixedVideoUrl: latest?.baseVideoId ? latest.videoUrl : null,
  };
}

const TRACKS_KEY = ["music-tracks"];
const LATEST_VIDEO_KEY = ["latest-video"];
const APPLY_DELAY_MS = 700;

export default function MusicPage() {
  const data = useLoaderData<typeof loader>();
  const queryClient = useQueryClient();
  const [prompt, setPrompt] = useState("");
  const [trackCount, setTrackCount] = useState(1);
  const [volume, setVolume] = useState(data.volume);
  const [mixedVideoUrl, setMixedVideoUrl] = useState<string | null>(data.mixedVideoUrl);
  const [chosenTrackId, setChosenTrackId] = useState<string | null>(null);
  const player = useTrackPlayer();

  const tracksLive = useRef(false);
  const tracksQuery = useQuery({
    queryKey: TRACKS_KEY,
    queryFn: async () => (await apiGet<MusicTrack[]>("/api/music-tracks")) ?? [],
    // paused while the progress events stream the tracks being made
    refetchInterval: () => (tracksLive.current ? false : POLLING_MS.musicTracks),
  });
  const tracks = tracksQuery.data ?? [];
  const counts = trackCounts(tracks);
  useProgressEvents("music", TRACKS_KEY, counts.pending + counts.processing > 0, tracksLive);
  const latestVideo = useQuery({
    queryKey: LATEST_VIDEO_KEY,
    queryFn: async () => (await apiGet<{ videoUrl: string | null }>("/api/latest-video")) ?? { videoUrl: null },
    refetchInterval: counts.completed > 0 ? POLLING_MS.latestVideo : false,
  });

  const generate = useMutation({
    mutationFn: (body: { prompt: string; trackCount: number }) => apiRequest("POST", "/api/music-tracks/generate", body),
    onSuccess: () => {
      toast({ title: "Music Generation Started", description: "Your background music tracks are being generated..." });
      queryClient.invalidateQueries({ queryKey: TRACKS_KEY });
    },
    onError: (error) => toast({ title: "Generation Failed", description: serverMessage(error) || "Failed to generate music", variant: "destructive" }),
  });

  const remove = useMutation({
    mutationFn: (id: string) => apiRequest("DELETE", `/api/music-tracks/${encodeURIComponent(id)}`),
    onSuccess: (_data, id) => {
      player.forget(id);
      if (chosenTrackId === id) setChosenTrackId(null);
      toast({ title: "Track Deleted", description: "Music track has been removed from your project." });
      queryClient.invalidateQueries({ queryKey: TRACKS_KEY });
    },
    onError: (error) => toast({ title: "Delete Failed", description: serverMessage(error) || "Failed to delete music track", variant: "destructive" }),
  });

  const apply = useMutation({
    mutationFn: (volumeLevel: number) =>
      apiRequest<{ videoUrl: string; volumeLevel: number }>("POST", "/api/render-background-music", {
        volumeLevel,
        ...(chosenTrackId && tracks.some((t) => t.id === chosenTrackId && t.status === "completed") ? { trackId: chosenTrackId } : {}),
      }),
    onSuccess: (result) => {
      setMixedVideoUrl(result.videoUrl);
      toast({ title: "Background Music Added", description: musicAddedMessage(result.volumeLevel) });
      queryClient.invalidateQueries({ queryKey: LATEST_VIDEO_KEY });
    },
    onError: (error) =>
      toast({
        title: "Background Music Failed",
        // the server's reason; a failed call without one; anything else that was thrown
        description: error instanceof Error ? serverMessage(error) || "Failed to add background music to video" : "Unknown error occurred",
        variant: "destructive",
      }),
  });

  // the mix's progress while it runs (it takes seconds; the percent shows it is moving)
  const mixProgress = useQuery({
    queryKey: ["background-music-progress"],
    queryFn: () => apiGet<{ isActive: boolean; percent: number; stage: string }>("/api/render-background-music"),
    enabled: apply.isPending,
    refetchInterval: apply.isPending ? 1000 : false,
  });

  // a few quick changes (arrow keys, Page Up) make one mix, at the value the creator stopped at
  const applyTimer = useRef<ReturnType<typeof setTimeout>>();
  useEffect(() => () => clearTimeout(applyTimer.current), []);
  // one save at a time, and only the latest value waits: Home then Page Up sent at once could land out of order on a
  // busy server (0 % saved under a slider showing 10 %), and queuing every key press made the last value wait behind
  // the others, lost if the creator left the page meanwhile
  const volumeToSave = useRef<number | null>(null);
  const volumeSaving = useRef(false);
  const sendVolumes = async () => {
    if (volumeSaving.current) return;
    volumeSaving.current = true;
    try {
      for (let value = volumeToSave.current; value !== null; value = volumeToSave.current) {
        volumeToSave.current = null;
        // fire-and-forget (spec section 7): errors are only logged
        await apiRequest("POST", "/api/music-volume", { volume: value }).catch((e) => console.error("could not save the music volume", e));
      }
    } finally {
      volumeSaving.current = false;
    }
  };
  const saveVolume = (value: number) => {
    volumeToSave.current = value;
    void sendVolumes();
    clearTimeout(applyTimer.current);
    if (!latestVideo.data?.videoUrl || counts.completed === 0) return;
    applyTimer.current = setTimeout(() => apply.mutate(value), APPLY_DELAY_MS);
  };

  const onGenerate = () => {
    const text = prompt.trim();
    if (!text) {
      toast({ title: "Prompt Required", description: "Please enter a music prompt to generate tracks.", variant: "destructive" });
      return;
    }
    generate.mutate({ prompt: text, trackCount });
  };

  const copyLink = async (url: string) => {
    try {
      await navigator.clipboard.writeText(new URL(url, window.location.origin).toString());
      toast({ title: "Link copied", description: "The video's link is on your clipboard." });
    } catch {
      toast({ title: "Copy failed", description: "Could not copy the link. Copy it from the player instead.", variant: "destructive" });
    }
  };

  if (!data.hasProject) {
    return (
      <main className="mx-auto max-w-3xl space-y-4 px-4 py-10">
        <h1 className="text-3xl font-bold">Add Background Music</h1>
        <p className="text-slate-400">No project yet. Create a video first.</p>
        <Button asChild>
          <Link to="/create">Create New Video</Link>
        </Button>
      </main>
    );
  }

  const generateDisabled = !prompt.trim() || generate.isPending || remove.isPending;
  const percent = mixProgress.data?.isActive ? mixProgress.data.percent : null;

  return (
    <main className="mx-auto max-w-6xl space-y-6 px-4 py-10">
      <header>
        <h1 className="flex items-center gap-2 text-3xl font-bold">
          <Music className="h-7 w-7 text-brand" aria-hidden /> Add Background Music
        </h1>
        <p className="mt-2 text-slate-400">{data.title}</p>
      </header>

      <div className="grid gap-6 md:grid-cols-2">
        <section aria-labelledby="generate-music" className="space-y-4 rounded-xl border border-slate-800 bg-slate-900 p-6">
          <h2 id="generate-music" className="text-xl font-semibold">
            Generate Music
          </h2>
          <div className="space-y-2">
            <Label htmlFor="music-prompt">Music prompt</Label>
            <Textarea
              id="music-prompt"
              value={prompt}
              maxLength={MAX_MUSIC_PROMPT_CHARS}
              placeholder="e.g. calm lofi piano with soft drums, warm and hopeful"
              onChange={(e) => setPrompt(e.target.value)}
              rows={3}
            />
          </div>
          <div className="space-y-2">
            <div className="flex justify-between">
              <Label id="track-count-label">Number of Tracks</Label>
              <span className="text-sm tabular-nums text-slate-300" data-testid="track-count">
                {trackCount}
              </span>
            </div>
            <Slider
              aria-label="Number of Tracks"
              min={MUSIC.minTracks}
              max={MUSIC.maxTracks}
              step={1}
              value={[trackCount]}
              onValueChange={([n]) => setTrackCount(n ?? 1)}
            />
          </div>
          <Button onClick={onGenerate} disabled={generateDisabled}>
            {generate.isPending ? <Loader2 className="h-4 w-4 animate-spin" aria-hidden /> : <Music className="h-4 w-4" aria-hidden />}
            {generateButtonLabel(trackCount)}
          </Button>
        </section>

        <section aria-labelledby="track-status" className="space-y-4 rounded-xl border border-slate-800 bg-slate-900 p-6">
          <h2 id="track-status" className="text-xl font-semibold">
            Track Status
          </h2>
          <dl className="grid grid-cols-3 gap-3 text-center">
            {(
              [
                ["Completed", counts.completed, "text-emerald-300"],
                ["Processing", counts.processing, "text-sky-300"],
                ["Pending", counts.pending, "text-amber-300"],
              ] as const
            ).map(([label, count, color]) => (
              <div key={label} className="rounded-lg border border-slate-800 p-3">
                <dd className={`text-2xl font-bold ${color}`} data-testid={`count-${label.toLowerCase()}`}>
                  {count}
                </dd>
                <dt className="text-sm text-slate-400">{label}</dt>
              </div>
            ))}
          </dl>

          {counts.completed > 0 ? (
            <div className="space-y-2 border-t border-slate-800 pt-4">
              <div className="flex justify-between">
                <Label>Background Music Volume</Label>
                <span className="text-sm tabular-nums text-slate-300" data-testid="music-volume">
                  {volume}%
                </span>
              </div>
              <Slider
                aria-label="Background Music Volume"
                min={MUSIC.minVolume}
                max={MUSIC.maxVolume}
                step={1}
                value={[volume]}
                disabled={apply.isPending}
                onValueChange={([v]) => setVolume(v ?? 0)}
                onValueCommit={([v]) => saveVolume(v ?? 0)}
              />
              <p className="text-xs text-slate-400">
                This volume is used when rendering your video. It is controlled here, not on the Render page
                {latestVideo.data?.videoUrl
                  ? "; changing it mixes the track you played last (or the newest one) into your latest video at once."
                  : "."}
              </p>
              {apply.isPending ? (
                <p role="status" className="flex items-center gap-2 text-sm text-sky-300">
                  <Loader2 className="h-4 w-4 animate-spin" aria-hidden /> {applyingMessage(volume)}
                  {percent !== null ? <span className="tabular-nums">({percent}%)</span> : null}
                </p>
              ) : null}
            </div>
          ) : null}
        </section>
      </div>

      {mixedVideoUrl ? (
        <section aria-labelledby="music-video" className="space-y-4 rounded-xl border border-emerald-800 bg-slate-900 p-6">
          <h2 id="music-video" className="text-xl font-semibold text-emerald-300">
            Video with Background Music
          </h2>
          <video key={mixedVideoUrl} src={mixedVideoUrl} controls preload="metadata" className="max-h-[480px] w-full rounded-lg bg-black" />
          <div className="flex flex-wrap gap-3">
            <Button asChild>
              <a
                href={`${mixedVideoUrl}?download=1&filename=${encodeURIComponent(videoFileName(data.title ?? "video"))}`}
                download={videoFileName(data.title ?? "video")}
              >
                <Download className="h-4 w-4" aria-hidden /> Download Video
              </a>
            </Button>
            <Button variant="outline" onClick={() => copyLink(mixedVideoUrl)}>
              <Copy className="h-4 w-4" aria-hidden /> Copy Link
            </Button>
          </div>
        </section>
      ) : null}

      <section aria-labelledby="music-tracks" className="space-y-4">
        <h2 id="music-tracks" className="text-xl font-semibold">
          Generated Music Tracks
        </h2>
        {tracks.length === 0 ? (
          <p className="text-slate-400">{tracksQuery.isLoading ? "Loading..." : "No music tracks generated yet."}</p>
        ) : (
          <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3" data-cached-audio={player.cachedCount}>
            {tracks.map((track) => (
              <TrackCard
                key={track.id}
                track={track}
                playing={player.playingId === track.id}
                time={player.times[track.id]}
                muted={player.muted[track.id] ?? false}
                volume={player.volumes[track.id] ?? 100}
                deleting={remove.isPending}
                onToggle={() => {
                  setChosenTrackId(track.id);
                  player.toggle(track);
                }}
                onSeek={(s) => player.seek(track.id, s)}
                onToggleMute={() => player.toggleMute(track.id)}
                onVolume={(v) => player.setVolume(track.id, v)}
                onDelete={() => remove.mutate(track.id)}
              />
            ))}
          </div>
        )}
      </section>
    </main>
  );
}
