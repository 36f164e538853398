import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { AlertCircle, Clapperboard, Loader2 } from "lucide-react";
import { useCallback, useEffect, useRef, useState } from "react";
import { GenerateAllBar } from "~/components/storyboard/generate-all-bar";
import { LivePreview } from "~/components/storyboard/live-preview";
import { SceneCard, type SceneBusy } from "~/components/storyboard/scene-card";
import { SequentialPlayer } from "~/components/storyboard/sequential-player";
import { Button } from "~/components/ui/button";
import { toast } from "~/hooks/use-toast";
import { apiGet, apiRequest, serverMessage } from "~/lib/api-client";
import { loadCurrentScript } from "~/lib/browser-storage";
import { GENERATE_ALL, GENERATION_STARTED_FLAG_MS, POLLING_MS } from "~/lib/constants";
import { needsAudio, needsImage, allScenesHaveMedia } from "~/lib/storyboard";
import { requireUserId } from "~/server/auth.server";
import { getCurrentProject } from "~/server/projects.server";
import { resolutionValue } from "~/lib/video-format";
import type { StoryboardCellView } from "~/server/storyboard.server";
import type { GenerateAllProgress } from "../../../workflows/shared/scene-media";

export const meta: MetaFunction = () => [{ title: "Storyboard · Reelsmith" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const project = await getCurrentProject(await requireUserId(request));
  return { project: project ? { title: project.title, resolution: resolutionValue(project.resolution) } : null };
}

type StoryboardStatus = { status: "not_found" | "processing" | "completed" | "error"; cellCount: number; title?: string; error?: string | null };
type GenerateAllState = { progress: (GenerateAllProgress & { running: boolean }) | null };

const STARTED_FLAG_KEY = "storyboardGenerationStartedAt";
const noBusy: SceneBusy = { image: false, voiceover: false };

export default function StoryboardPage() {
  const { project } = useLoaderData<typeof loader>();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState<Record<number, SceneBusy>>({});
  const [playingScene, setPlayingScene] = useState<number | null>(null);
  const finishedRun = useRef(false);

  const status = useQuery({
    queryKey: ["storyboard-status"],
    queryFn: () => apiGet<StoryboardStatus>("/api/storyboard-status"),
    refetchInterval: POLLING_MS.storyboardStatus,
  });
  const cells = useQuery({
    queryKey: ["storyboards"],
    queryFn: () => apiGet<{ storyboardCells: StoryboardCellView[] }>("/api/storyboards"),
    enabled: !!project,
    refetchInterval: POLLING_MS.storyboards,
  });
  const generateAll = useQuery({
    queryKey: ["generate-all-content"],
    queryFn: () => apiGet<GenerateAllState>("/api/generate-all-content"),
    enabled: status.data?.status === "completed",
    refetchInterval: (q) => (q.state.data?.progress?.running ? 2000 : false),
  });
  const list = cells.data?.storyboardCells ?? [];
  const refresh = useCallback(() => {
    queryClient.invalidateQueries({ queryKey: ["storyboards"] });
    queryClient.invalidateQueries({ queryKey: ["storyboard-status"] });
  }, [queryClient]);

  const start = useMutation({
    mutationFn: () => {
      const script = loadCurrentScript(window.localStorage);
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
    if (status.data?.status !== "not_found" || list.length > 0 || start.isPending) return;
    const script = loadCurrentScript(window.localStorage);
    if (script?.status !== "completed") return;
    if (Date.now() - Number(window.sessionStorage.getItem(STARTED_FLAG_KEY) ?? 0) < GENERATION_STARTED_FLAG_MS) return;
    start.mutate();
  }, [status.data?.status, list.length, start]);

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
    mutationFn: () => apiRequest("POST", "/api/generate-all-content"),
    onSuccess: () => {
      finishedRun.current = false;
      queryClient.invalidateQueries({ queryKey: ["generate-all-content"] });
    },
    onError: (error) => toast({ title: "Batch generation failed", description: serverMessage(error), variant: "destructive" }),
  });

  // When a run this page watched ends: the summary, a refetch, and a reload after 2 s (the spec's order).
  const progress = generateAll.data?.progress ?? null;
  const wasRunning = useRef(false);
  useEffect(() => {
    if (progress?.running) {
      wasRunning.current = true;
      refresh();
      return;
    }
    if (!wasRunning.current || !progress || finishedRun.current) return;
    finishedRun.current = true;
    wasRunning.current = false;
    const failed = progress.imagesFailed + progress.voiceoversFailed;
    toast({
      title: failed ? "Generation finished with errors" : "All content generated",
      description: `${progress.imagesDone} images and ${progress.voiceoversDone} voiceovers generated${failed ? `, ${failed} failed` : ""}.`,
      variant: failed ? "destructive" : "default",
    });
    refresh();
    const timer = setTimeout(() => window.location.reload(), GENERATE_ALL.reloadAfterMs);
    return () => clearTimeout(timer);
  }, [progress, refresh]);

  if (!project) {
    return (
      <Shell>
        <Empty title="No Video Details Found" text="Describe your video and write its script first.">
          <Button asChild>
            <Link to="/create">Set Up Video Details</Link>
          </Button>
        </Empty>
      </Shell>
    );
  }

  const state = status.data?.status;
  if (!status.data && status.isLoading) {
    return (
      <Shell>
        <p role="status" className="flex items-center gap-2 text-slate-400">
          <Loader2 className="h-4 w-4 animate-spin" aria-hidden /> Loading storyboard...
        </p>
      </Shell>
    );
  }
  if (state === "processing") {
    return (
      <Shell>
        <Empty title="Generating your storyboard" text="This usually takes 1-2 minutes">
          <Loader2 className="h-8 w-8 animate-spin text-brand" aria-hidden />
        </Empty>
      </Shell>
    );
  }
  if (state === "error") {
    return (
      <Shell>
        <Empty title="Storyboard generation failed" text={status.data?.error || "An error occurred during storyboard generation"} icon={<AlertCircle className="h-8 w-8 text-red-400" aria-hidden />}>
          <Button onClick={() => start.mutate()} disabled={start.isPending}>
            Try Again
          </Button>
        </Empty>
      </Shell>
    );
  }
  if (state !== "completed" || list.length === 0) {
    return (
      <Shell>
        <Empty title="Ready to Generate Storyboard" text="Your script becomes scenes: an image prompt and a voiceover for each." icon={<Clapperboard className="h-8 w-8 text-brand" aria-hidden />}>
          <Button onClick={() => start.mutate()} disabled={start.isPending}>
            Generate Storyboard
          </Button>
        </Empty>
      </Shell>
    );
  }

  const vertical = project.resolution !== "16:9";
  const everyAudio = list.length > 0 && list.every((c) => !needsAudio(c));
  return (
    <Shell>
      <div className="mb-6 flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-3xl font-bold">{status.data?.title ?? project.title}</h1>
          <p className="text-slate-400">
            Storyboard · {list.length} scenes · {project.resolution}
          </p>
        </div>
        {allScenesHaveMedia(list) ? (
          <Button asChild>
            <Link to="/render">Continue to Render</Link>
          </Button>
        ) : null}
      </div>
      <GenerateAllBar
        missingImages={list.filter((c) => needsImage(c)).length}
        missingVoiceovers={list.filter((c) => needsAudio(c)).length}
        progress={progress}
        starting={startAll.isPending}
        onGenerateAll={() => startAll.mutate()}
      />
      <div className="mt-6 grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3 2xl:grid-cols-4">
        {list.map((cell) => (
          <SceneCard
            key={cell.cellIndex}
            cell={cell}
            vertical={vertical}
            busy={busy[cell.cellIndex] ?? noBusy}
            playing={playingScene === cell.cellIndex}
            onSave={(field, value) => saveCell(cell.cellIndex, field, value)}
            onGenerate={(kind) => generateScene(cell.cellIndex, kind)}
          />
        ))}
      </div>
      <LivePreview cells={list} resolution={project.resolution} />
      {everyAudio ? <SequentialPlayer audioUrls={list.map((c) => c.audioUrl)} onSceneChange={setPlayingScene} /> : null}
    </Shell>
  );
}

function Shell({ children }: { children: React.ReactNode }) {
  return <main className="mx-auto max-w-7xl px-4 py-10 pb-28">{children}</main>;
}

function Empty(props: { title: string; text: string; icon?: React.ReactNode; children?: React.ReactNode }) {
  return (
    <div className="flex flex-col items-center gap-4 rounded-xl border border-slate-800 bg-slate-900 p-10 text-center">
      {props.icon}
      <h1 className="text-2xl font-bold">{props.title}</h1>
      <p className="text-slate-400">{props.text}</p>
      {props.children}
    </div>
  );
}
