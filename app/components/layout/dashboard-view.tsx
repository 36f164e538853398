// The dashboard: the user's projects with how far each has come, a way to open one as the current project
// (the pipeline pages work on it), and a way to start a new one.
import { Link, useNavigate, useRevalidator } from "@remix-run/react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { CalendarDays, Check, FolderOpen, Layers, Plus, Trash2 } from "lucide-react";
import { useRef, useState } from "react";
import { PlanBadge, planLabel } from "~/components/nav/plan-badge";
import { Button } from "~/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "~/components/ui/dialog";
import { toast } from "~/hooks/use-toast";
import { apiRequest, serverMessage } from "~/lib/api-client";
import { STAGE_STEPS, stageIndex, stagePage } from "~/lib/project-stage";
import { DURATION_RULES } from "~/lib/video-format";
import { cn } from "~/lib/utils";
import type { AccessLevel } from "~/lib/subscription";
import type { ProjectSummary, StepsDone } from "~/core/projects.server";
import { ProjectFamily } from "./project-family";

export type DashboardData = {
  userName: string;
  accessLevel: AccessLevel;
  selfHosted: boolean;
  projects: ProjectSummary[];
  freeProjectLimit: number;
};

function formatSeconds(seconds: number): string {
  const m = Math.floor(seconds / 60);
  const s = seconds % 60;
  return m ? (s ? `${m} min ${s} s` : `${m} min`) : `${s} s`;
}

/** A tick only for what the project has really done (its music may be skipped, its script not yet written). */
function StageSteps({ done }: { done: StepsDone }) {
  return (
    <ol className="flex flex-wrap gap-1.5" aria-label="Progress">
      {STAGE_STEPS.map((s) => (
        <li
          key={s.stage}
          data-done={done[s.stage] ? "true" : "false"}
          className={cn("flex items-center gap-1 rounded-full px-2 py-0.5 text-xs", done[s.stage] ? "bg-brand/25 text-violet-100" : "bg-slate-800 text-slate-400")}
        >
          {done[s.stage] ? <Check className="h-3 w-3" aria-label="done" /> : null}
          {s.label}
        </li>
      ))}
    </ol>
  );
}

function ProjectCard({ project, all }: { project: ProjectSummary; all: ProjectSummary[] }) {
  const navigate = useNavigate();
  const revalidator = useRevalidator();
  const queryClient = useQueryClient();
  // the dialog is opened by state, not by a Radix trigger: closing it gives the focus back here by hand
  const deleteButton = useRef<HTMLButtonElement>(null);
  const stage = STAGE_STEPS[stageIndex(project.stage)]!;
  const [confirmDelete, setConfirmDelete] = useState(false);
  const open = useMutation({
    mutationFn: () => apiRequest("POST", `/api/projects/${encodeURIComponent(project.id)}/open`),
    onSuccess: () => {
      // every cached read was about the project that was current until now
      queryClient.clear();
      revalidator.revalidate();
      navigate(stagePage(project.stage));
    },
    onError: (error) => toast({ title: "Could not open the project", description: serverMessage(error), variant: "destructive" }),
  });
  const remove = useMutation({
    mutationFn: () => apiRequest("DELETE", `/api/projects/${encodeURIComponent(project.id)}`),
    onSuccess: () => {
      setConfirmDelete(false);
      toast({ title: "Project deleted", description: `"${project.title}" and its files were removed.` });
      revalidator.revalidate();
    },
    onError: (error) => {
      setConfirmDelete(false);
      toast({ title: "Delete failed", description: serverMessage(error), variant: "destructive" });
    },
  });
  return (
    <li className={cn("flex min-w-0 flex-col gap-3 rounded-xl border bg-slate-900 p-5", project.isCurrent ? "border-brand/70" : "border-slate-800")}>
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0">
          {/* long titles wrap (whole words, long words broken) rather than being cut short */}
          <h3 className="break-words text-lg font-semibold [overflow-wrap:anywhere]">{project.title}</h3>
          <p className="line-clamp-3 text-sm text-slate-400" title={project.topic}>
            {project.topic}
          </p>
        </div>
        {project.isCurrent ? <span className="shrink-0 rounded-full bg-brand px-2 py-0.5 text-xs font-medium text-white">Current</span> : null}
      </div>
      <p className="text-sm text-slate-400">
        {DURATION_RULES[project.resolution].label} · {formatSeconds(project.durationSeconds)} · Stage:{" "}
        <span className="font-medium text-slate-200" data-testid="project-stage">
          {stage.label}
        </span>
      </p>
      <StageSteps done={project.done} />
      <ProjectFamily project={project} all={all} />
      <div className="mt-auto flex items-center justify-between gap-2">
        <Button
          variant={project.isCurrent ? "default" : "outline"}
          disabled={open.isPending || remove.isPending}
          onClick={() => open.mutate()}
          aria-label={`Open ${project.title}`}
        >
          <FolderOpen className="h-4 w-4" aria-hidden /> {open.isPending ? "Opening..." : "Open"}
        </Button>
        <Button ref={deleteButton} variant="ghost" size="sm" className="text-slate-400 hover:text-red-300" disabled={remove.isPending} onClick={() => setConfirmDelete(true)} aria-label={`Delete ${project.title}`}>
          <Trash2 className="h-4 w-4" aria-hidden /> Delete
        </Button>
      </div>
      <Dialog open={confirmDelete} onOpenChange={(next) => !remove.isPending && setConfirmDelete(next)}>
        <DialogContent
          onCloseAutoFocus={(e) => {
            e.preventDefault();
            deleteButton.current?.focus();
          }}
        >
          <DialogHeader>
            <DialogTitle>Delete this project?</DialogTitle>
            <DialogDescription>
              &ldquo;{project.title}&rdquo; will be removed with its script, storyboard, images, voiceovers, music and videos. Work in progress on it is
              stopped. This cannot be undone.
            </DialogDescription>
          </DialogHeader>
          <DialogFooter>
            <Button variant="outline" onClick={() => setConfirmDelete(false)} disabled={remove.isPending}>
              Keep it
            </Button>
            <Button variant="destructive" onClick={() => remove.mutate()} disabled={remove.isPending}>
              {remove.isPending ? "Deleting..." : "Delete project"}
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </li>
  );
}

export function DashboardView({ data }: { data: DashboardData }) {
  const { accessLevel, selfHosted, projects } = data;
  const atFreeLimit = accessLevel === "free" && projects.length >= data.freeProjectLimit;
  const plan = planLabel(accessLevel, selfHosted);
  return (
    <main className="mx-auto max-w-6xl px-4 py-10">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-3xl font-bold">Dashboard</h1>
          <p className="mt-1 text-slate-400">Welcome, {data.userName}.</p>
        </div>
        {atFreeLimit ? (
          <Button asChild variant="outline">
            <Link to="/subscription">Upgrade for more projects</Link>
          </Button>
        ) : (
          <div className="flex flex-wrap gap-2">
            {/* many videos from a CSV (issue 32): the batches screen had no way in but its address */}
            <Button asChild variant="outline">
              <Link to="/channels">
                <CalendarDays className="h-4 w-4" aria-hidden /> Channels
              </Link>
            </Button>
            <Button asChild variant="outline">
              <Link to="/batches">
                <Layers className="h-4 w-4" aria-hidden /> Batch of Videos
              </Link>
            </Button>
            <Button asChild>
              <Link to="/create">
                <Plus className="h-4 w-4" aria-hidden /> New Video
              </Link>
            </Button>
          </div>
        )}
      </div>

      <section className="mt-6 flex flex-wrap items-center gap-3 rounded-xl border border-slate-800 bg-slate-900/60 p-4 text-sm">
        <PlanBadge accessLevel={accessLevel} selfHosted={selfHosted} />
        <span className="text-slate-300">{plan.hint}</span>
        {accessLevel === "free" ? (
          <Link to="/subscription" className="text-violet-300 underline">
            Upgrade to Premium
          </Link>
        ) : null}
      </section>

      <h2 className="mt-10 text-xl font-semibold">Your Videos</h2>
      {projects.length === 0 ? (
        <div className="mt-4 rounded-xl border border-dashed border-slate-700 p-10 text-center">
          <p className="text-lg font-medium">No videos yet</p>
          <p className="mt-1 text-slate-400">Describe your first video and Reelsmith writes the script.</p>
          <Button asChild className="mt-6">
            <Link to="/create">Create New Video</Link>
          </Button>
        </div>
      ) : (
        <ul className="mt-4 grid grid-cols-1 gap-4 md:grid-cols-2 lg:grid-cols-3">
          {projects.map((project) => (
            <ProjectCard key={project.id} project={project} all={projects} />
          ))}
        </ul>
      )}
    </main>
  );
}
