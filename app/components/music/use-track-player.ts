// Playback of the Music screen's tracks (spec section 4): one track plays at a time (starting another pauses
// the previous; finishing clears the playing state); at most 3 audio elements are kept, the oldest discarded
// when a fourth is needed; audio is fetched as a blob, falling back to the direct URL; everything is released
// when the page is left or unloaded. Playback errors are only logged and clear the playing state.
import { useCallback, useEffect, useRef, useState } from "react";
import { MUSIC } from "~/lib/constants";
import type { MusicTrack } from "~/lib/music";

type Entry = { trackId: string; audio: HTMLAudioElement; objectUrl: string | null };
export type TrackTime = { current: number; duration: number | null };

export function useTrackPlayer() {
  const entries = useRef<Entry[]>([]);
  const [playingId, setPlayingId] = useState<string | null>(null);
  const [times, setTimes] = useState<Record<string, TrackTime>>({});
  const [muted, setMuted] = useState<Record<string, boolean>>({});
  const [volumes, setVolumes] = useState<Record<string, number>>({});
  const settings = useRef({ muted, volumes });
  settings.current = { muted, volumes };

  const release = useCallback((entry: Entry) => {
    entry.audio.pause();
    entry.audio.removeAttribute("src");
    entry.audio.load();
    if (entry.objectUrl) URL.revokeObjectURL(entry.objectUrl);
  }, []);

  const releaseAll = useCallback(() => {
    for (const entry of entries.current) release(entry);
    entries.current = [];
    setPlayingId(null);
  }, [release]);

  useEffect(() => {
    window.addEventListener("pagehide", releaseAll);
    window.addEventListener("beforeunload", releaseAll);
    return () => {
      window.removeEventListener("pagehide", releaseAll);
      window.removeEventListener("beforeunload", releaseAll);
      releaseAll();
    };
  }, [releaseAll]);

  const audioFor = useCallback(
    async (track: MusicTrack): Promise<Entry> => {
      const cached = entries.current.find((e) => e.trackId === track.id);
      if (cached) return cached;
      let objectUrl: string | null = null;
      try {
        const response = await fetch(track.audioUrl!, { credentials: "include" });
        if (!response.ok) throw new Error(`${response.status}`);
        objectUrl = URL.createObjectURL(await response.blob());
      } catch (e) {
        console.warn("could not fetch the track as a blob; playing it from its URL", track.id, e);
      }
      const audio = new Audio(objectUrl ?? track.audioUrl!);
      audio.preload = "auto";
      audio.volume = (settings.current.volumes[track.id] ?? 100) / 100;
      audio.muted = settings.current.muted[track.id] ?? false;
      const update = () =>
        setTimes((t) => ({
          ...t,
          [track.id]: { current: audio.currentTime, duration: Number.isFinite(audio.duration) && audio.duration > 0 ? audio.duration : null },
        }));
      audio.addEventListener("loadedmetadata", update);
      audio.addEventListener("timeupdate", update);
      audio.addEventListener("ended", () => {
        update();
        setPlayingId((id) => (id === track.id ? null : id));
      });
      audio.addEventListener("error", () => {
        console.error("track playback failed", track.id, audio.error);
        setPlayingId((id) => (id === track.id ? null : id));
      });
      const entry: Entry = { trackId: track.id, audio, objectUrl };
      // a fourth audio element replaces the oldest one
      while (entries.current.length >= MUSIC.maxCachedAudio) {
        const oldest = entries.current.shift()!;
        release(oldest);
        setPlayingId((id) => (id === oldest.trackId ? null : id));
      }
      entries.current.push(entry);
      return entry;
    },
    [release],
  );

  const toggle = useCallback(
    async (track: MusicTrack) => {
      if (!track.audioUrl) return;
      const current = entries.current.find((e) => e.trackId === playingId);
      if (playingId === track.id && current) {
        current.audio.pause();
        setPlayingId(null);
        return;
      }
      current?.audio.pause();
      setPlayingId(track.id);
      const entry = await audioFor(track);
      try {
        await entry.audio.play();
      } catch (e) {
        console.error("track playback failed", track.id, e);
        setPlayingId((id) => (id === track.id ? null : id));
      }
    },
    [audioFor, playingId],
  );

  const seek = useCallback((trackId: string, seconds: number) => {
    const entry = entries.current.find((e) => e.trackId === trackId);
    if (entry) entry.audio.currentTime = seconds;
  }, []);

  const toggleMute = useCallback((trackId: string) => {
    setMuted((m) => {
      const next = !m[trackId];
      const entry = entries.current.find((e) => e.trackId === trackId);
      if (entry) entry.audio.muted = next;
      return { ...m, [trackId]: next };
    });
  }, []);

  const setVolume = useCallback((trackId: string, percent: number) => {
    const entry = entries.current.find((e) => e.trackId === trackId);
    if (entry) entry.audio.volume = percent / 100;
    setVolumes((v) => ({ ...v, [trackId]: percent }));
  }, []);

  /** Forgets a deleted track's audio. */
  const forget = useCallback(
    (trackId: string) => {
      const entry = entries.current.find((e) => e.trackId === trackId);
      if (!entry) return;
      release(entry);
      entries.current = entries.current.filter((e) => e !== entry);
      setPlayingId((id) => (id === trackId ? null : id));
    },
    [release],
  );

  /** How many audio elements are kept now (the e2e test reads it through data-cached-audio). */
  const cachedCount = entries.current.length;

  return { playingId, times, muted, volumes, toggle, seek, toggleMute, setVolume, forget, cachedCount };
}
