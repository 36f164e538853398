// "Make the whole video" on /create (issue 32): starts the make-video workflow through POST /api/v1/videos with the
// form's details (the session is the caller), then follows its stages (several at once) and the time left; every screen stays open to
// look at or change what it made. Kept out of the create route so that page only passes its fields in.
import { useQueryClient } from "@tanstack/react-query";
import { Link } from "@remix-run/react";
import { useEffect, useState } from "react";
import { Button } from "~/components/ui/button";
import { toast } from "~/hooks/use-toast";
import { apiRequest, serverMessage } from "~/lib/api-client";
import { StageStrip, type StripStage } from "./stage-strip";

/** `script`: the creator's own words (the outline or the one-text editor), read exactly; the topic is then optional. */
export type WholeVideoDetails = { title: string; topic: string; format: string; duration: number; language: string; voice: string | null; voiceSpeed: number; script?: string };
type RunView = { id: string; projectId: string | null; status: string; stageLabel: string; percent: number; error: string | null; stages?: StripStage[]; remainingSeconds?: number | null };

const POLL_MS = 2000;

export function MakeWholeVideoButton({ details, disabled, valid }: { details: WholeVideoDetails; disabled?: boolean; valid: () => boolean }) {
  const queryClient = useQueryClient();
  const [run, setRun] = useState<RunView | null>(null);
  const [starting, setStarting] = useState(false);

  useEffect(() => {
    if (!run || run.status !== "running") return;
    const timer = setTimeout(() => {
      apiRequest<RunView>("GET", `/api/v1/videos/${encodeURIComponent(run.id)}`)
        .then(setRun)
        .catch(() => setRun({ ...run }));
    }, POLL_MS);
    return () => clearTimeout(timer);
  }, [run]);

  async function start() {
    if (!valid()) return;
    setStarting(true);
    try {
      const made = await apiRequest<RunView>("POST", "/api/v1/videos", {
        title: details.title.trim(),
        ...(details.topic.trim() ? { topic: details.topic.trim() } : {}),
        ...(details.script ? { script: details.script } : {}),
        format: details.format,
        duration: details.duration,
        language: details.language,
        ...(details.voice ? { voice: details.voice } : {}),
        voiceSpeed: details.voiceSpeed,
      });
      // the new project is the current one: every cached read was about the previous project
      queryClient.clear();
      setRun(made);
    } catch (error) {
      toast({ title: "Could not start the video", description: serverMessage(error).replace(/^[\w.]+: /, ""), variant: "destructive" });
    } finally {
      setStarting(false);
    }
  }

  return (
    <div className="grid gap-2">
      <Button type="button" size="lg" variant="outline" disabled={disabled || starting || run?.status === "running"} onClick={() => void start()} className="sm:justify-self-start">
        {starting ? "Starting..." : "Make the whole video"}
      </Button>
      <p className="text-xs text-slate-400">Script, scenes, pictures, voiceovers, render and thumbnail in one go; each screen shows its part as it is made.</p>
      {run ? (
        <div role="status" aria-live="polite" className="grid gap-1 rounded-md border border-slate-800 bg-slate-950 p-3 text-sm">
          <div className="flex justify-between gap-2">
            <span>{run.status === "completed" ? "Your video is ready." : run.status === "failed" ? "The video could not be made." : run.stageLabel}</span>
            <span className="tabular-nums text-slate-400">{run.percent}%</span>
          </div>
          <div className="h-2 overflow-hidden rounded bg-slate-800" aria-hidden>
            <div className="h-full bg-brand transition-all" style={{ width: `${run.percent}%` }} />
          </div>
          {run.stages && run.status !== "completed" ? <StageStrip stages={run.stages} remainingSeconds={run.remainingSeconds ?? null} /> : null}
          {run.error ? <p className="text-red-400">{run.error}</p> : null}
          {run.projectId ? (
            <Link className="text-violet-300 underline" to={run.status === "completed" ? `/projects/${run.projectId}` : "/script"}>
              {run.status === "completed" ? "Open the video" : "Watch it on the screens"}
            </Link>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
