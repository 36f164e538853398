// The storyboard page's orchestration: status, cells and Generate All polling, the automatic start of the
// scene split, scene edits and per-scene generation. The page (app/routes/storyboard/storyboard.tsx) only draws.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useRef, useState } from "react";
import { useProgressEvents } from "~/hooks/use-progress-events";
import { toast } from "~/hooks/use-toast";
import { apiGet, apiRequest, serverMessage } from "~/lib/api-client";
import { GENERATE_ALL, GENERATION_STARTED_FLAG_MS, POLLING_MS } from "~/lib/constants";
import { pollWhileUnreachable, serverUnreachable } from "~/lib/server-reachability";
import type { StoryboardCellView } from "~/server/storyboard.server";
import { nextGenerateAllWatch, type GenerateAllRun } from "./generate-all-summary";
import type { SceneBusy } from "./scene-card";

export type StoryboardStatus = {
  status: "not_found" | "processing" | "completed" | "error";
  cellCount: number;
  title?: string;
  error?: string | null;
  /** the text provider that split the script, by name */
  splitBy?: string | null;
  /** when the split under way started (ISO) */
  startedAt?: string | null;
};
type GenerateAllState = { progress: GenerateAllRun | null };

const STARTED_FLAG_KEY = "storyboardGenerationStartedAt";
// The saved script (browser storage, read through zod) matters only when a storyboard is started: loaded then,
// not with the page, which then needs no zod at all (about 25 KiB compressed; decision 134's fifth round).
const loadBrowserStorage = () => import("~/lib/browser-storage");
export const noBusy: SceneBusy = { image: false, voiceover: false };


/** What the page's loader already read: the first answers of the status and scenes queries. */
export type StoryboardInitialData = { status: StoryboardStatus; cells: { storyboardCells: StoryboardCellView[] } };

/** Everything the storyboard page shows and does, for the current project (null: none yet). */
export function useStoryboard(project: { title: string } | null, initial: StoryboardInitialData | null = null) {
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState<Record<number, SceneBusy>>({});
  const [playingScene, setPlayingScene] = useState<number | null>(null);
  // the Generate All run whose summary this page still owes: the one it started, or one it saw running
  const watchedRun = useRef<string | null>(null);

  // the split's status and Generate All's progress stream as progress events while they run; polling pauses then
  const statusLive = useRef(false);
  const generateAllLive = useRef(false);
  const status = useQuery({
    queryKey: ["storyboard-status"],
    queryFn: () => apiGet<StoryboardStatus>("/api/storyboard-status"),
    initialData: initial?.status,
    refetchInterval: (q) => pollWhileUnreachable(statusLive.current ? false : POLLING_MS.storyboardStatus, q.state),
  });
  useProgressEvents("storyboard", ["storyboard-status"], status.data?.status === "processing", statusLive);
  const cells = useQuery({
    queryKey: ["storyboards"],
    queryFn: () => apiGet<{ storyboardCells: StoryboardCellView[] }>("/api/storyboards"),
    initialData: initial?.cells,
    enabled: !!project,
    refetchInterval: (q) => pollWhileUnreachable(POLLING_MS.storyboards, q.state),
  });
  const generateAll = useQuery({
    queryKey: ["generate-all-content"],
    queryFn: () => apiGet<GenerateAllState>("/api/generate-all-content"),
    enabled: status.data?.status === "completed",
    refetchInterval: (q) => pollWhileUnreachable(q.state.data?.progress?.running && !generateAllLive.current ? 2000 : false, q.state),
  });
  useProgressEvents("generate-all", ["generate-all-content"], !!generateAll.data?.progress?.running, generateAllLive);
  const unreachable = serverUnreachable([status, cells, generateAll]);
  const list = cells.data?.storyboardCells ?? [];

  // The split finished (or changed the scenes): read them now rather than at the next 5 s poll, so the page
  // goes from "Splitting" straight to the scenes.
  const statusCellCount = status.data?.status === "completed" ? status.data.cellCount : null;
  const { refetch: refetchCells } = cells;
  useEffect(() => {
    if (statusCellCount !== null && statusCellCount !== list.length && !!project) void refetchCells();
  }, [statusCellCount, list.length, project, refetchCells]);
  const refresh = useCallback(() => {
    queryClient.invalidateQueries({ queryKey: ["storyboards"] });
    queryClient.invalidateQueries({ queryKey: ["storyboard-status"] });
  }, [queryClient]);

  const start = useMutation({
    mutationFn: async () => {
      const script = (await loadBrowserStorage()).loadCurrentScript(window.localStorage);
      return apiRequest<{ existing?: boolean; processing?: boolean }>("POST", "/api/generate-storyboards", {
        script: script?.script ?? undefined,
        title: script?.title ?? project?.title,
      });
    },
    onSuccess: (result) => {
      window.sessionStorage.setItem(STARTED_FLAG_KEY, String(Date.now()));
      if (result?.existing) toast({ title: "Storyboard already exists" });
      else if (result?.processing) toast({ title: "Generation in progress" });
      else toast({ title: "Storyboard generation started" });
      refresh();
    },
    onError: (error) => toast({ title: "Generation failed", description: serverMessage(error) || "Failed to start storyboard generation", variant: "destructive" }),
  });

  // Start automatically when the saved script is completed, no storyboard exists, and none is being started.
  useEffect(() => {
    if (unreachable || status.data?.status !== "not_found" || list.length > 0 || start.isPending) return;
    let current = true;
    void loadBrowserStorage().then(({ loadCurrentScript }) => {
      const script = loadCurrentScript(window.localStorage);
      if (!current || script?.status !== "completed") return;
      if (Date.now() - Number(window.sessionStorage.getItem(STARTED_FLAG_KEY) ?? 0) < GENERATION_STARTED_FLAG_MS) return;
      start.mutate();
    });
    return () => {
      current = false;
    };
  }, [unreachable, status.data?.status, list.length, start]);

  const saveCell = async (cellIndex: number, field: "imagePrompt" | "voiceoverText", value: string) => {
    try {
      await apiRequest("PUT", "/api/storyboard-cell", { cellIndex, [field]: value });
      refresh();
    } catch (error) {
      toast({ title: "Update failed", description: serverMessage(error), variant: "destructive" });
      throw error;
    }
  };

  const generateScene = async (cellIndex: number, kind: "image" | "voiceover") => {
    const cell = list.find((c) => c.cellIndex === cellIndex);
    setBusy((b) => ({ ...b, [cellIndex]: { ...(b[cellIndex] ?? noBusy), [kind]: true } }));
    try {
      if (kind === "image") await apiRequest("POST", "/api/ai/generate-image", { prompt: cell?.imagePrompt, cellIndex });
      else await apiRequest("POST", "/api/ai/generate-voiceover", { text: cell?.voiceoverText, cellIndex });
      refresh();
    } catch (error) {
      toast({ title: kind === "image" ? "Image generation failed" : "Voiceover generation failed", description: serverMessage(error), variant: "destructive" });
    } finally {
      setBusy((b) => ({ ...b, [cellIndex]: { ...(b[cellIndex] ?? noBusy), [kind]: false } }));
    }
  };

  const startAll = useMutation({
    mutationFn: () => apiRequest<{ started: boolean; runId?: string }>("POST", "/api/generate-all-content"),
    onSuccess: (result) => {
      if (result?.runId) watchedRun.current = result.runId;
      queryClient.invalidateQueries({ queryKey: ["generate-all-content"] });
    },
    onError: (error) => toast({ title: "Batch generation failed", description: serverMessage(error), variant: "destructive" }),
  });

  // When a run this page started or saw running ends: the summary, a refetch, and a reload after 2 s (the
  // spec's order).
  const progress = generateAll.data?.progress ?? null;
  useEffect(() => {
    const next = nextGenerateAllWatch(watchedRun.current, progress);
    watchedRun.current = next.watched;
    if (progress?.running) {
      refresh();
      return;
    }
    if (!next.summary) return;
    toast(next.summary);
    refresh();
    const timer = setTimeout(() => window.location.reload(), GENERATE_ALL.reloadAfterMs);
    return () => clearTimeout(timer);
  }, [progress, refresh]);


  // after the creator's own media changed a scene: the scenes, and the project's images to pick from
  const refreshMedia = useCallback(() => {
    refresh();
    queryClient.invalidateQueries({ queryKey: ["scene-media"] });
  }, [refresh, queryClient]);

  return { status, unreachable, list, progress, busy, start, startAll, saveCell, generateScene, refreshMedia, playingScene, setPlayingScene };
}
