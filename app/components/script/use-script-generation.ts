// The script page's orchestration: which video details apply (the server's project, else browser storage),
// status polling, the automatic start, the browser-storage mirror, Reset & Retry, the storyboard hand-off and the
// download. The page (app/routes/script/script.tsx) only draws.
import { useNavigate } from "@remix-run/react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useRef, useState } from "react";
import { useProgressEvents } from "~/hooks/use-progress-events";
import { dismissToast, toast } from "~/hooks/use-toast";
import { apiGet, apiRequest, serverMessage } from "~/lib/api-client";
import { clearCurrentScript, loadVideoDetails, saveCurrentScript, saveVideoDetails } from "~/lib/browser-storage";
import { GENERATION_STARTED_FLAG_MS, POLLING_MS, SCRIPT_STATUS_KEY } from "~/lib/constants";
import { scriptFileName } from "~/lib/script";
import { pollWhileUnreachable, serverUnreachable } from "~/lib/server-reachability";
import type { VideoDetails } from "~/lib/video-details";
import type { ScriptStatusResponse } from "~/server/script.server";

const STARTED_FLAG_KEY = "scriptGenerationStartedAt";
/** The 'started' flag names the video it was set for: a new video made within 30 s still starts its own script. */
const startedFlag = (d: VideoDetails, at: number) => JSON.stringify({ at, video: `${d.title}\n${d.topic}` });
function startedAtFor(d: VideoDetails): number {
  try {
    const flag = JSON.parse(window.sessionStorage.getItem(STARTED_FLAG_KEY) ?? "null") as { at?: number; video?: string } | null;
    return flag?.video === `${d.title}\n${d.topic}` ? Number(flag.at ?? 0) : 0;
  } catch {
    return 0; // an old or corrupt flag: no start is under way
  }
}

export function useScriptGeneration(serverDetails: VideoDetails | null) {
  const [details, setDetails] = useState<VideoDetails | null | undefined>(undefined);
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const notifiedFailure = useRef<string | null>(null);
  const live = useRef(false);

  useEffect(() => {
    const local = loadVideoDetails(window.localStorage);
    const chosen = serverDetails ?? local;
    if (serverDetails) saveVideoDetails(window.localStorage, serverDetails);
    setDetails(chosen);
  }, [serverDetails]);

  const status = useQuery({
    queryKey: SCRIPT_STATUS_KEY,
    queryFn: () => apiGet<ScriptStatusResponse>("/api/script-status"),
    enabled: !!details,
    // every 3 s (the spec's script-page interval), also once complete: a server that stops answering is noticed
    // and the page recovers by itself when it is back; paused while the progress events stream the status
    refetchInterval: (query) => pollWhileUnreachable(live.current ? false : POLLING_MS.scriptPage, query.state),
  });
  useProgressEvents("script", SCRIPT_STATUS_KEY, status.data?.status === "processing", live);
  const unreachable = serverUnreachable([status]);
  // the "Script generation started" toast is about a run: it goes once that run has ended
  const startedToast = useRef<string | null>(null);

  const start = useMutation({
    mutationFn: (d: VideoDetails) => apiRequest<{ started: boolean }>("POST", "/api/generate-script", d),
    onSuccess: (_result, d) => {
      window.sessionStorage.setItem(STARTED_FLAG_KEY, startedFlag(d, Date.now()));
      startedToast.current = toast({ title: "Script generation started", description: "This may take a few minutes." });
      queryClient.invalidateQueries({ queryKey: SCRIPT_STATUS_KEY });
    },
    onError: (error) => {
      toast({ title: "Generation failed", description: serverMessage(error) || "Failed to start script generation", variant: "destructive" });
    },
  });

  const data = status.data;

  useEffect(() => {
    if (!startedToast.current || !data || data.status === "processing" || data.status === "not_found") return;
    dismissToast(startedToast.current);
    startedToast.current = null;
  }, [data]);

  // Mirror the server's script into browser storage, and apply the spec's clearing rules.
  useEffect(() => {
    if (!data || !details) return;
    const storage = window.localStorage;
    if (data.status === "not_found" || data.status === "cancelled") {
      clearCurrentScript(storage);
    } else if (data.status === "completed" || data.status === "processing" || data.status === "error") {
      saveCurrentScript(storage, {
        title: data.title ?? details.title,
        topic: data.topic ?? details.topic,
        resolution: data.resolution ?? details.resolution,
        duration: data.duration ?? details.duration,
        script: data.script ?? null,
        status: data.status,
        createdAt: data.createdAt ?? new Date().toISOString(),
        progress: data.progress ?? undefined,
        error: data.error ?? null,
        isStuck: data.isStuck,
      });
    }
    if (data.status === "error") {
      const key = `${data.title}|${data.createdAt}`;
      if (notifiedFailure.current !== key) {
        notifiedFailure.current = key;
        toast({ title: "Script generation failed", description: data.error || "An error occurred during script generation", variant: "destructive" });
      }
    }
  }, [data, details]);

  // No script yet: start one automatically (once; the 'started' flag lasts 30 seconds).
  useEffect(() => {
    if (!details || unreachable || data?.status !== "not_found" || start.isPending) return;
    if (Date.now() - startedAtFor(details) < GENERATION_STARTED_FLAG_MS) return;
    start.mutate(details);
  }, [details, unreachable, data?.status, start]);

  const resetAndRetry = useCallback(async () => {
    if (!details) return;
    try {
      clearCurrentScript(window.localStorage);
      window.sessionStorage.removeItem(STARTED_FLAG_KEY);
      await start.mutateAsync(details);
      toast({ title: "Script reset successfully" });
    } catch {
      toast({ title: "Reset failed", description: "Failed to reset script", variant: "destructive" });
    }
  }, [details, start]);

  const storyboard = useMutation({
    mutationFn: () =>
      apiRequest<{ existing?: boolean; processing?: boolean }>("POST", "/api/generate-storyboards", {
        script: data?.script,
        title: data?.title ?? details?.title,
        topic: details?.topic,
        resolution: details?.resolution,
        duration: details?.duration,
      }),
    onSuccess: (result) => {
      if (result?.existing) toast({ title: "Storyboard already exists" });
      else if (result?.processing) toast({ title: "Generation in progress" });
      else toast({ title: "Storyboard generation started" });
      navigate("/storyboard");
    },
    onError: (error) => {
      toast({ title: "Generation failed", description: serverMessage(error) || "Failed to start storyboard generation", variant: "destructive" });
    },
  });

  function download() {
    if (!data?.script) return;
    const url = URL.createObjectURL(new Blob([data.script], { type: "text/plain;charset=utf-8" }));
    const link = document.createElement("a");
    link.href = url;
    link.download = scriptFileName(data.title ?? details?.title ?? "script");
    link.click();
    URL.revokeObjectURL(url);
    toast({ title: "Script downloaded" });
  }

  return { details, data, unreachable, start, resetAndRetry, storyboard, download };
}
