// Live progress for a page's status query (docs/decisions/132): while a run is active, one EventSource on
// /api/progress-events writes each answer into the query's cache, and the page stops polling (`streaming`).
// When the browser has no EventSource or the stream fails, `streaming` is false and the page's polling goes on.
import { useQueryClient, type QueryKey } from "@tanstack/react-query";
import { useEffect, useState, type MutableRefObject } from "react";

export type ProgressStage = "render" | "script" | "storyboard" | "generate-all" | "music" | "upload";

/** The stream's address for a stage (the server's route answers the stage's polling JSON in each event). */
export const progressEventsUrl = (stage: ProgressStage) => `/api/progress-events?stage=${encodeURIComponent(stage)}`;

/**
 * Opens the stage's event stream while `active`; returns whether it is streaming now. `live` (optional) is kept
 * equal to it before the page re-renders, so a query's refetchInterval, which runs before this hook, can read
 * it and pause polling. A failed stream is not reopened until the run is over (polling covers it meanwhile).
 */
export function useProgressEvents(
  stage: ProgressStage,
  queryKey: QueryKey,
  active: boolean,
  live?: MutableRefObject<boolean>,
): { streaming: boolean } {
  const queryClient = useQueryClient();
  const [streaming, setStreamingState] = useState(false);
  const [failed, setFailed] = useState(false);
  // the key's identity changes with each render of the caller; its content is what matters
  const keyJson = JSON.stringify(queryKey);
  const setStreaming = (on: boolean) => {
    if (live) live.current = on;
    setStreamingState(on);
  };

  useEffect(() => {
    if (!active) setFailed(false);
  }, [active]);

  useEffect(() => {
    if (!active || failed || typeof window === "undefined" || typeof window.EventSource !== "function") return;
    const key = JSON.parse(keyJson) as QueryKey;
    const source = new EventSource(progressEventsUrl(stage));
    let ended = false;
    source.addEventListener("open", () => setStreaming(true));
    source.addEventListener("progress", (event) => {
      try {
        queryClient.setQueryData(key, JSON.parse((event as MessageEvent<string>).data));
      } catch {
        // a garbled event: the next one (or the polling) brings the state
      }
    });
    source.addEventListener("end", () => {
      // the run is over and its last answer was sent: close before the browser reconnects by itself
      ended = true;
      source.close();
      setStreaming(false);
    });
    source.addEventListener("error", () => {
      if (ended) return;
      source.close();
      setStreaming(false);
      setFailed(true);
    });
    return () => {
      source.close();
      setStreaming(false);
    };
    // setStreaming only touches state and the caller's ref, both stable
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [active, failed, stage, keyJson, queryClient]);

  return { streaming };
}
