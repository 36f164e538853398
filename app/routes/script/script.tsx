import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData, useNavigate } from "@remix-run/react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { AlertTriangle } from "lucide-react";
import { useCallback, useEffect, useRef, useState } from "react";
import { ScriptComplete } from "~/components/script/script-complete";
import { ScriptProgressView } from "~/components/script/script-progress";
import { Button } from "~/components/ui/button";
import { toast } from "~/hooks/use-toast";
import { apiGet, apiRequest, serverMessage } from "~/lib/api-client";
import { clearCurrentScript, loadCurrentScript, loadVideoDetails, saveCurrentScript, saveVideoDetails } from "~/lib/browser-storage";
import { GENERATION_STARTED_FLAG_MS, POLLING_MS } from "~/lib/constants";
import { scriptFileName } from "~/lib/script";
import type { VideoDetails } from "~/lib/video-details";
import { requireUserId } from "~/server/auth.server";
import { getCurrentProject } from "~/server/projects.server";
import { resolutionValue } from "~/lib/video-format";
import type { ScriptStatusResponse } from "~/server/script.server";

export const meta: MetaFunction = () => [{ title: "Script · Reelsmith" }];

// The server's current project, so the page works on a browser that has no saved details.
export async function loader({ request }: LoaderFunctionArgs) {
  const project = await getCurrentProject(await requireUserId(request));
  const details: VideoDetails | null = project
    ? { title: project.title, topic: project.topic, resolution: resolutionValue(project.resolution), duration: project.durationSeconds }
    : null;
  return { details };
}

export const SCRIPT_STATUS_KEY = ["script-status"];
const STARTED_FLAG_KEY = "scriptGenerationStartedAt";
// The spec's notice, as one text: its title, " - ", its description.
const STUCK_NOTICE = "Script Generation Taking Too Long - The generation has been running for over 30 minutes. You can reset and try again.";
const [STUCK_TITLE, STUCK_DESCRIPTION] = STUCK_NOTICE.split(" - ") as [string, string];

export default function ScriptPage() {
  const { details: serverDetails } = useLoaderData<typeof loader>();
  const [details, setDetails] = useState<VideoDetails | null | undefined>(undefined);
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const notifiedFailure = useRef<string | null>(null);

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
    refetchInterval: (query) => (query.state.data?.status === "processing" ? POLLING_MS.scriptPage : false),
  });

  const start = useMutation({
    mutationFn: (d: VideoDetails) => apiRequest<{ started: boolean }>("POST", "/api/generate-script", d),
    onSuccess: () => {
      window.sessionStorage.setItem(STARTED_FLAG_KEY, String(Date.now()));
      toast({ title: "Script generation started", description: "This may take a few minutes." });
      queryClient.invalidateQueries({ queryKey: SCRIPT_STATUS_KEY });
    },
    onError: (error) => {
      toast({ title: "Generation failed", description: serverMessage(error) || "Failed to start script generation", variant: "destructive" });
    },
  });

  const data = status.data;

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
    if (!details || data?.status !== "not_found" || start.isPending) return;
    const startedAt = Number(window.sessionStorage.getItem(STARTED_FLAG_KEY) ?? 0);
    if (Date.now() - startedAt < GENERATION_STARTED_FLAG_MS) return;
    start.mutate(details);
  }, [details, data?.status, start]);

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

  if (details === undefined) return <PageShell>Loading...</PageShell>;

  if (!details) {
    return (
      <PageShell>
        <div className="rounded-xl border border-slate-800 bg-slate-900 p-10 text-center">
          <h1 className="text-2xl font-bold">No Video Details Found</h1>
          <p className="mt-2 text-slate-400">Describe your video first; the script is written from its title and topic.</p>
          <Button asChild className="mt-6">
            <Link to="/create">Set Up Video Details</Link>
          </Button>
        </div>
      </PageShell>
    );
  }

  if (data?.status === "completed" && data.script) {
    return (
      <PageShell>
        <ScriptComplete
          title={data.title ?? details.title}
          script={data.script}
          onDownload={download}
          onGenerateStoryboard={() => storyboard.mutate()}
          storyboardBusy={storyboard.isPending}
        />
      </PageShell>
    );
  }

  if (data?.status === "processing") {
    return (
      <PageShell>
        {data.isStuck ? (
          <div role="alert" className="mb-6 flex flex-wrap items-center justify-between gap-4 rounded-xl border border-amber-700 bg-amber-950 p-4">
            <div className="flex items-start gap-3">
              <AlertTriangle className="mt-0.5 h-5 w-5 text-amber-400" aria-hidden />
              <p className="text-sm text-amber-100">
                <strong className="block text-base text-white">{STUCK_TITLE}</strong>
                {STUCK_DESCRIPTION}
              </p>
            </div>
            <Button variant="outline" onClick={resetAndRetry} disabled={start.isPending}>
              Reset & Retry
            </Button>
          </div>
        ) : null}
        <ScriptProgressView title={data.title ?? details.title} progress={data.progress} />
      </PageShell>
    );
  }

  if (data?.status === "error" || data?.status === "cancelled") {
    return (
      <PageShell>
        <div className="rounded-xl border border-slate-800 bg-slate-900 p-10 text-center">
          <h1 className="text-2xl font-bold">{data.status === "error" ? "Script generation failed" : "Script generation was cancelled"}</h1>
          <p className="mt-2 text-slate-400">{data.error || "An error occurred during script generation"}</p>
          <Button className="mt-6" onClick={() => start.mutate(details)} disabled={start.isPending}>
            Generate Script
          </Button>
        </div>
      </PageShell>
    );
  }

  const cached = typeof window !== "undefined" ? loadCurrentScript(window.localStorage) : null;
  return (
    <PageShell>
      <ScriptProgressView title={cached?.title ?? details.title} progress={null} />
    </PageShell>
  );
}

function PageShell({ children }: { children: React.ReactNode }) {
  return <main className="mx-auto max-w-4xl px-4 py-10">{children}</main>;
}
