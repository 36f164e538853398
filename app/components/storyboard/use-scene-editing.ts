// The storyboard's scene editing (issue 33): add, delete with undo, move, split and merge. Each edit shows at once
// (the same plan the server runs: app/lib/scene-edit.ts), is sent as one request, and the server's answer then
// replaces the page's scenes. A deletion waits SCENE_UNDO_MS before it is sent, so Undo needs no request; leaving
// the page sends it at once. Edits are sent one after another, in the order they were made.
import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { toast } from "~/hooks/use-toast";
import { apiRequest, serverMessage } from "~/lib/api-client";
import { SCENE_UNDO_MS, applySceneEdit, type SceneEdit } from "~/lib/scene-edit";
import { estimatedDurationFor } from "~/lib/storyboard";
import type { StoryboardCellView } from "~/server/storyboard.server";

type Cells = { storyboardCells: StoryboardCellView[] };
export type PendingDelete = { cell: StoryboardCellView; number: number; until: number };

const blankScene = (text: string): StoryboardCellView => ({
  id: `new-${Math.random().toString(36).slice(2)}`,
  cellIndex: 0,
  imagePrompt: "Written when the scene is saved",
  voiceoverText: text,
  imageUrl: null,
  audioUrl: null,
  estimatedDuration: estimatedDurationFor(text),
  audioDuration: null,
  imageSource: "generated",
  clipUrl: null,
  clipDuration: null,
  mediaCredit: null,
  wordTimings: null,
  imageMadeBy: null,
  voiceMadeBy: null,
});

export function useSceneEditing(projectId: string | null, cells: StoryboardCellView[]) {
  const queryClient = useQueryClient();
  const queue = useRef<Promise<unknown>>(Promise.resolve());
  const [pending, setPending] = useState<PendingDelete | null>(null);
  const pendingRef = useRef<PendingDelete | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const [announcement, setAnnouncement] = useState("");

  const send = useCallback(
    (edit: SceneEdit) => {
      if (!projectId) return Promise.resolve();
      // shown now, over the scenes as they are; the server's answer replaces them
      queryClient.setQueryData<Cells>(["storyboards"], (old) => (old ? { ...old, storyboardCells: applySceneEdit(old.storyboardCells, edit, blankScene) } : old));
      const run = queue.current.then(async () => {
        try {
          await queryClient.cancelQueries({ queryKey: ["storyboards"] });
          const saved = await apiRequest<Cells>("POST", `/api/projects/${projectId}/scenes`, edit);
          queryClient.setQueryData<Cells>(["storyboards"], (old) => ({ ...(old ?? {}), storyboardCells: saved.storyboardCells }));
        } catch (error) {
          toast({ title: "Update failed", description: serverMessage(error), variant: "destructive" });
        } finally {
          void queryClient.invalidateQueries({ queryKey: ["storyboards"] });
          void queryClient.invalidateQueries({ queryKey: ["storyboard-status"] });
        }
      });
      queue.current = run;
      return run;
    },
    [projectId, queryClient],
  );

  const commitPending = useCallback(() => {
    const waiting = pendingRef.current;
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
    pendingRef.current = null;
    setPending(null);
    if (waiting) void send({ action: "delete", sceneId: waiting.cell.id });
  }, [send]);

  /** Every other edit first saves a deletion still waiting for its undo time, so the two never cross. */
  const edit = useCallback(
    (next: SceneEdit) => {
      commitPending();
      return send(next);
    },
    [commitPending, send],
  );

  const remove = useCallback(
    (cell: StoryboardCellView) => {
      commitPending();
      const waiting = { cell, number: cell.cellIndex + 1, until: Date.now() + SCENE_UNDO_MS };
      pendingRef.current = waiting;
      setPending(waiting);
      setAnnouncement(`Scene ${waiting.number} deleted. Undo is possible for ${Math.round(SCENE_UNDO_MS / 1000)} seconds.`);
      timer.current = setTimeout(commitPending, SCENE_UNDO_MS);
    },
    [commitPending],
  );

  const undo = useCallback(() => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
    const waiting = pendingRef.current;
    pendingRef.current = null;
    setPending(null);
    if (waiting) setAnnouncement(`Scene ${waiting.number} is back.`);
  }, []);

  // leaving the page (or closing it) saves a deletion that was not undone
  useEffect(() => {
    const flush = () => {
      const waiting = pendingRef.current;
      if (!waiting || !projectId) return;
      pendingRef.current = null;
      void fetch(`/api/projects/${projectId}/scenes`, {
        method: "POST",
        credentials: "include",
        keepalive: true,
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ action: "delete", sceneId: waiting.cell.id } satisfies SceneEdit),
      });
    };
    window.addEventListener("pagehide", flush);
    return () => {
      window.removeEventListener("pagehide", flush);
      if (timer.current) clearTimeout(timer.current);
      flush();
    };
  }, [projectId]);

  /** `to`: the place among the scenes shown (the same as among all once a waiting deletion is saved, which edit does first). */
  const move = useCallback(
    (cell: StoryboardCellView, to: number) => {
      if (to === cell.cellIndex || to < 0) return;
      setAnnouncement(`Scene ${cell.cellIndex + 1} moved to place ${to + 1}.`);
      void edit({ action: "move", sceneId: cell.id, to });
    },
    [edit],
  );

  // the scenes the page shows, numbered as they will be: a deleted one is gone at once, though it is saved only
  // when its undo time is up
  const shown = useMemo(() => (pending ? cells.filter((c) => c.id !== pending.cell.id).map((c, cellIndex) => ({ ...c, cellIndex })) : cells), [cells, pending]);

  return { shown, pending, edit, remove, undo, move, announcement };
}
