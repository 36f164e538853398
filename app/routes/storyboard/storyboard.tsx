import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { AlertCircle, Clapperboard, Loader2 } from "lucide-react";
import { AnimateScenesPanel } from "~/components/storyboard/animate-scenes-panel";
import { GenerateAllBar } from "~/components/storyboard/generate-all-bar";
import { ImageSourcePicker } from "~/components/storyboard/image-source-picker";
import { TransitionPicker } from "~/components/storyboard/transition-picker";
import { SceneCheckPanel, useSceneChecks } from "~/components/storyboard/scene-check-panel";
import { SceneCard } from "~/components/storyboard/scene-card";
import { noBusy, useStoryboard, type StoryboardInitialData } from "~/components/storyboard/use-storyboard";
import { SequentialPlayer } from "~/components/storyboard/sequential-player";
import { Button } from "~/components/ui/button";
import { ServerUnreachableNotice } from "~/components/layout/server-unreachable";
import { MadeWith } from "~/components/storyboard/made-with";
import { SplitTimer } from "~/components/storyboard/split-timer";
import { storyboardPageState } from "~/components/storyboard/storyboard-view";
import { needsAudio, needsImage, allScenesHaveMedia } from "~/lib/storyboard";
import { requireUserId } from "~/server/auth.server";
import { getCurrentProject } from "~/core/projects.server";
import { getStoryboardStatus, listCells } from "~/server/storyboard.server";
import { getImageSource } from "~/server/scene-media.server";
import { getTransitions } from "~/core/transitions.server";
import { resolutionValue } from "~/lib/video-format";
import { pageMeta } from "~/lib/meta";
import { useSceneEditing } from "~/components/storyboard/use-scene-editing";
import { UndoDeleteBar } from "~/components/storyboard/undo-delete-bar";
import { LivePreviewWhenNear } from "~/components/storyboard/live-preview-when-near";
import type { SceneEditActions } from "~/components/storyboard/scene-edit-toolbar";
import { formatLength } from "~/lib/own-script";

export const meta: MetaFunction = () => pageMeta("Storyboard · Reelsmith");

export async function loader({ request }: LoaderFunctionArgs) {
  const userId = await requireUserId(request);
  const project = await getCurrentProject(userId);
  if (!project) return { project: null, initial: null, imageSource: null, transitions: null };
  // the scenes (and the image source above them) come with the page, so they show at first paint instead of
  // after API calls, and nothing moves when they arrive (issue 36); the JSON round trip gives them exactly the
  // shapes the API routes answer, which the page's queries then poll
  const [status, storyboardCells, imageSource, transitions] = await Promise.all([getStoryboardStatus(project), listCells(project.id), getImageSource(userId, project), getTransitions(project.id)]);
  const initial = JSON.parse(JSON.stringify({ status, cells: { title: project.title, storyboardCells } })) as StoryboardInitialData;
  return { project: { id: project.id, title: project.title, resolution: resolutionValue(project.resolution) }, initial, imageSource, transitions };
}

export default function StoryboardPage() {
  const { project, initial, imageSource, transitions } = useLoaderData<typeof loader>();
  const { status, unreachable, list: saved, progress, busy, start, startAll, saveCell, generateScene, refreshMedia, playingScene, setPlayingScene } = useStoryboard(project, initial);
  const scenes = useSceneEditing(project?.id ?? null, saved);
  // what the page shows: the scenes with the creator's latest edit already made (a deleted one gone at once)
  const list = scenes.shown;
  const sceneChecks = useSceneChecks(Boolean(project) && list.length > 0);

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

  const notice = unreachable ? <ServerUnreachableNotice what="the storyboard" /> : null;
  const view = storyboardPageState({ status: status.data, statusLoading: status.isLoading, unreachable, sceneCount: list.length });
  if (view === "loading" || view === "loading-scenes") {
    return (
      <Shell>
        <p role="status" className="flex items-center gap-2 text-slate-400">
          <Loader2 className="h-4 w-4 animate-spin" aria-hidden /> {view === "loading" ? "Loading storyboard..." : "Loading scenes..."}
        </p>
      </Shell>
    );
  }
  if (view === "unreachable") {
    return (
      <Shell>
        {notice}
      </Shell>
    );
  }
  if (view === "processing") {
    return (
      <Shell>
        {notice}
        <Empty title="Generating your storyboard" text="Splitting the script into scenes, each with an image prompt and a voiceover.">
          <Loader2 className="h-8 w-8 animate-spin text-brand" aria-hidden />
          <SplitTimer startedAt={status.data?.startedAt ?? null} />
        </Empty>
      </Shell>
    );
  }
  if (view === "error") {
    return (
      <Shell>
        {notice}
        <Empty title="Storyboard generation failed" text={status.data?.error || "An error occurred during storyboard generation"} icon={<AlertCircle className="h-8 w-8 text-red-400" aria-hidden />}>
          <Button onClick={() => start.mutate()} disabled={start.isPending || unreachable}>
            Try Again
          </Button>
        </Empty>
      </Shell>
    );
  }
  if (view === "empty") {
    return (
      <Shell>
        {notice}
        <Empty title="Ready to Generate Storyboard" text="Your script becomes scenes: an image prompt and a voiceover for each." icon={<Clapperboard className="h-8 w-8 text-brand" aria-hidden />}>
          <Button onClick={() => start.mutate()} disabled={start.isPending || unreachable}>
            Generate Storyboard
          </Button>
        </Empty>
      </Shell>
    );
  }

  const vertical = project.resolution !== "16:9";
  const seconds = list.reduce((sum, c) => sum + (c.audioDuration ?? c.estimatedDuration), 0);
  const actions: SceneEditActions = {
    move: scenes.move,
    add: (at, text) => scenes.edit({ action: "add", at, text }),
    split: (cell, at) => scenes.edit({ action: "split", sceneId: cell.id, at }),
    merge: (cell) => void scenes.edit({ action: "merge", sceneId: cell.id }),
    remove: scenes.remove,
  };
  const editable = !unreachable && !progress?.running;
  // a mark holds for the picture it looked at: a scene's new picture clears it at once
  const pictures = new Map(list.map((c) => [c.cellIndex, c.imageUrl]));
  const marks = new Map((sceneChecks.data?.checks ?? []).filter((c) => !c.passed && pictures.get(c.cellIndex) === c.imageUrl).map((c) => [c.cellIndex, c]));
  const everyAudio = list.length > 0 && list.every((c) => !needsAudio(c));
  return (
    <Shell>
      {notice}
      <div className="mb-6 flex flex-wrap items-end justify-between gap-4">
        <div className="min-w-0 max-w-full">
          <h1 className="text-3xl font-bold">{status.data?.title ?? project.title}</h1>
          <p className="text-slate-400">
            Storyboard · {list.length} {list.length === 1 ? "scene" : "scenes"} · about {formatLength(seconds)} · {project.resolution}
          </p>
          <div className="mt-2 flex flex-wrap items-center gap-x-6 gap-y-2">
            <ImageSourcePicker initial={imageSource ?? undefined} />
            <TransitionPicker initial={transitions ?? undefined} sceneCount={list.length} />
          </div>
          <MadeWith splitBy={status.data?.splitBy ?? null} cells={list} />
        </div>
        <div className="flex flex-wrap items-center gap-3">
          {everyAudio ? <SequentialPlayer audioUrls={list.map((c) => c.audioUrl)} onSceneChange={setPlayingScene} /> : null}
          {allScenesHaveMedia(list) && !unreachable ? (
            <Button asChild>
              <Link to="/render">Continue to Render</Link>
            </Button>
          ) : null}
        </div>
      </div>
      <GenerateAllBar
        missingImages={list.filter((c) => needsImage(c)).length}
        missingVoiceovers={list.filter((c) => needsAudio(c)).length}
        progress={progress}
        starting={startAll.isPending}
        onGenerateAll={() => startAll.mutate()}
      />
      <AnimateScenesPanel scenes={list.map((c) => ({ cellIndex: c.cellIndex, hasPicture: Boolean(c.imageUrl) }))} onClipsMade={refreshMedia} />
      <SceneCheckPanel onRemade={refreshMedia} />
      <div className="mt-6 grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3 2xl:grid-cols-4">
        {list.map((cell) => (
          <SceneCard
            key={cell.id}
            cell={cell}
            vertical={vertical}
            busy={busy[cell.cellIndex] ?? noBusy}
            playing={playingScene === cell.cellIndex}
            checkMark={marks.get(cell.cellIndex)}
            onSave={(field, value) => saveCell(cell.cellIndex, field, value)}
            onGenerate={(kind) => generateScene(cell.cellIndex, kind)}
            onMediaChanged={refreshMedia}
            editing={
              editable
                ? {
                    count: list.length,
                    actions,
                    onDropScene: (id) => {
                      const dragged = list.find((c) => c.id === id);
                      if (dragged) scenes.move(dragged, cell.cellIndex);
                    },
                  }
                : undefined
            }
          />
        ))}
      </div>
      <p className="sr-only" aria-live="polite">
        {scenes.announcement}
      </p>
      <UndoDeleteBar pending={scenes.pending} onUndo={scenes.undo} />
      {/* the Player and its code load when the section nears the screen; the frame is in the server's HTML */}
      <LivePreviewWhenNear cells={list} resolution={project.resolution} />
    </Shell>
  );
}

function Shell({ children }: { children: React.ReactNode }) {
  return <main className="mx-auto max-w-7xl px-4 py-10">{children}</main>;
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
