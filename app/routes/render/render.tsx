import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ArrowLeft, Film } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { RenderChecklist } from "~/components/render/render-checklist";
import { QualityPicker } from "~/components/render/quality-picker";
import { RenderProgressPanel } from "~/components/render/render-progress-panel";
import {
  deleteVideosRequest,
  fetchLatestVideo,
  fetchRenderProgress,
  isRenderActive,
  LATEST_VIDEO_KEY,
  RENDER_PROGRESS_KEY,
  startRenderRequest,
} from "~/components/render/render-queries";
import { RenderedVideo } from "~/components/render/rendered-video";
import { renderView } from "~/components/render/render-view";
import { ServerUnreachableNotice } from "~/components/layout/server-unreachable";
import { Button } from "~/components/ui/button";
import { useProgressEvents } from "~/hooks/use-progress-events";
import { toast } from "~/hooks/use-toast";
import { serverMessage } from "~/lib/api-client";
import { POLLING_MS } from "~/lib/constants";
import { pollWhileUnreachable, serverUnreachable } from "~/lib/server-reachability";
import { requireUserId } from "~/server/auth.server";
import { prisma } from "~/core/db.server";
import { allScenesHaveMedia } from "~/lib/storyboard";
import { defaultRenderHeight, type RenderHeight } from "~/lib/video-format";
import { maxRenderHeight } from "~/core/permissions.server";
import { getCurrentProject } from "~/core/projects.server";
import { pageMeta } from "~/lib/meta";
import { VideoMotionFacts } from "~/components/render/video-motion-facts";

export const meta: MetaFunction = () => pageMeta("Render · Reelsmith");

export async function loader({ request }: LoaderFunctionArgs) {
  const userId = await requireUserId(request);
  const [project, maxHeight] = await Promise.all([getCurrentProject(userId), maxRenderHeight(userId)]);
  if (!project) return { title: null, sceneCount: 0, maxHeight, checklist: { scriptGenerated: false, storyboardCreated: false, allMediaGenerated: false } };
  const [script, cells] = await Promise.all([
    prisma.script.findUnique({ where: { projectId: project.id }, select: { status: true } }),
    prisma.storyboardCell.findMany({ where: { storyboard: { projectId: project.id } }, select: { imageUrl: true, audioUrl: true } }),
  ]);
  const scriptGenerated = script?.status === "completed";
  return {
    title: scriptGenerated ? project.title : null,
    sceneCount: cells.length,
    maxHeight,
    checklist: { scriptGenerated, storyboardCreated: cells.length > 0, allMediaGenerated: allScenesHaveMedia(cells) },
  };
}

export default function RenderPage() {
  const { title, sceneCount, checklist, maxHeight } = useLoaderData<typeof loader>();
  const [quality, setQuality] = useState<RenderHeight>(defaultRenderHeight(maxHeight));
  const queryClient = useQueryClient();
  const ready = checklist.allMediaGenerated;

  const progressLive = useRef(false);
  const progressQuery = useQuery({
    queryKey: RENDER_PROGRESS_KEY,
    queryFn: fetchRenderProgress,
    // every 2 s while a render is active; otherwise every 5 s (like the latest video), so a render started
    // elsewhere and a server that stopped answering are both noticed (docs/decisions/080); none while the
    // progress events stream it (docs/decisions/132)
    refetchInterval: (query) =>
      pollWhileUnreachable(
        progressLive.current ? false : isRenderActive(query.state.data) ? POLLING_MS.renderProgress : POLLING_MS.latestVideo,
        query.state,
      ),
  });
  useProgressEvents("render", RENDER_PROGRESS_KEY, isRenderActive(progressQuery.data), progressLive);
  const latestVideo = useQuery({
    queryKey: LATEST_VIDEO_KEY,
    queryFn: fetchLatestVideo,
    refetchInterval: (query) => pollWhileUnreachable(POLLING_MS.latestVideo, query.state),
  });
  const unreachable = serverUnreachable([progressQuery, latestVideo]);
  const progress = progressQuery.data;
  const active = !unreachable && isRenderActive(progress);
  const videoUrl = latestVideo.data?.videoUrl ?? null;

  const refetchAll = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: RENDER_PROGRESS_KEY }),
      queryClient.invalidateQueries({ queryKey: LATEST_VIDEO_KEY }),
    ]);

  // when a render ends (seen by a successful read), its video becomes the latest one
  // (until it is read, the previous video is not shown again)
  const wasActive = useRef(false);
  const [readingNewVideo, setReadingNewVideo] = useState(false);
  useEffect(() => {
    if (unreachable) return;
    if (wasActive.current && !active) {
      setReadingNewVideo(true);
      void queryClient.invalidateQueries({ queryKey: LATEST_VIDEO_KEY }).finally(() => setReadingNewVideo(false));
    }
    wasActive.current = active;
  }, [active, unreachable, queryClient]);

  const start = useMutation({
    mutationFn: () => startRenderRequest(quality),
    // awaiting the refetch keeps the button busy until the progress says the render is active
    onSuccess: async () => {
      toast({ title: "Rendering has begun", description: "Video rendering is starting. This may take several minutes." });
      await refetchAll();
    },
    onError: (error) => {
      toast({ title: "Render failed", description: `Render failed: ${serverMessage(error)}`, variant: "destructive" });
      refetchAll();
    },
  });

  const remove = useMutation({
    mutationFn: deleteVideosRequest,
    onSuccess: () => {
      toast({ title: "Videos deleted", description: "Video files removed and render state reset" });
      refetchAll();
    },
    onError: (error) => {
      // the server's reason when it gave one (an upload still sending the video), else the general line
      const reason = serverMessage(error);
      toast({ title: "Delete failed", description: reason ? `Could not delete video files: ${reason}` : "Could not delete video files", variant: "destructive" });
    },
  });

  const view = renderView({ ready, sceneCount, progress, unreachable, starting: start.isPending, videoUrl: readingNewVideo ? null : videoUrl });

  return (
    <main className="mx-auto max-w-4xl space-y-6 px-4 py-10">
      <header>
        <h1 className="flex items-center gap-2 text-3xl font-bold">
          <Film className="h-7 w-7 text-brand" aria-hidden /> {title || "Video Rendering"}
        </h1>
        <p className="mt-2 text-slate-400" data-testid="render-subtitle">
          {view.subtitle}
        </p>
      </header>

      {unreachable ? <ServerUnreachableNotice what="the render's progress" /> : null}

      <section className="space-y-5 rounded-xl border border-slate-800 bg-slate-900 p-6">
        <RenderChecklist state={checklist} />
        <h2 className="text-xl font-semibold">{view.heading}</h2>
        {ready ? (
          <div className="space-y-4">
            <QualityPicker value={quality} maxHeight={maxHeight} disabled={!view.canStart} onChange={setQuality} />
            <Button size="lg" onClick={() => start.mutate()} disabled={!view.canStart}>
              {view.buttonLabel}
            </Button>
          </div>
        ) : (
          <div className="space-y-3">
            <p className="font-semibold">Complete Storyboard First</p>
            <p className="text-slate-400">You need to generate all images and voiceovers before rendering your video.</p>
            <Button asChild variant="outline">
              <Link to="/storyboard">Go to Storyboard</Link>
            </Button>
          </div>
        )}
        {view.panel ? <RenderProgressPanel progress={view.panel} lastKnown={view.panelIsLastKnown} /> : null}
        {view.lastError ? (
          <p role="alert" className="rounded-lg border border-red-800 bg-red-950 p-3 text-sm text-red-200">
            The last render failed: {view.lastError}
          </p>
        ) : null}
      </section>

      {view.showVideo && videoUrl ? (
        <RenderedVideo videoUrl={videoUrl} title={title || "video"} deleting={remove.isPending} onDelete={() => remove.mutate()} facts={latestVideo.data}>
          <VideoMotionFacts />
        </RenderedVideo>
      ) : null}

      <Link to="/dashboard" className="inline-flex items-center gap-2 text-slate-300 hover:text-white">
        <ArrowLeft className="h-4 w-4" aria-hidden /> Back to Dashboard
      </Link>
    </main>
  );
}
