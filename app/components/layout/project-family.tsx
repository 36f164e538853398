// A project's family on the dashboard (issue 51): a Short or a version says which video it was made from; a video
// lists what was made from it and links to its Shorts and versions page.
import { Link } from "@remix-run/react";
import { GitBranch, Scissors } from "lucide-react";
import { languageLabel } from "~/lib/languages";
import type { ProjectSummary } from "~/core/projects.server";

const kindLabel = (p: Pick<ProjectSummary, "derivedKind" | "language">) => (p.derivedKind === "short" ? "Short" : `${languageLabel(p.language)} version`);

export function ProjectFamily({ project, all }: { project: ProjectSummary; all: ProjectSummary[] }) {
  const source = project.sourceProjectId ? all.find((p) => p.id === project.sourceProjectId) : undefined;
  const children = all.filter((p) => p.sourceProjectId === project.id);
  return (
    <div className="space-y-1 text-sm" data-testid="project-family">
      {project.derivedKind ? (
        <p className="flex items-start gap-1 text-slate-300">
          <GitBranch className="mt-0.5 h-4 w-4 shrink-0 text-violet-300" aria-hidden />
          <span>
            {kindLabel(project)} of {source ? <span className="font-medium">&ldquo;{source.title}&rdquo;</span> : "a deleted video"}
          </span>
        </p>
      ) : null}
      {children.length ? (
        <ul className="ml-5 list-disc text-slate-400" aria-label={`Made from ${project.title}`}>
          {children.map((c) => (
            <li key={c.id}>
              {kindLabel(c)}: <span className="text-slate-200">{c.title}</span>
            </li>
          ))}
        </ul>
      ) : null}
      {!project.derivedKind && project.done.media ? (
        <Link to={`/projects/${project.id}/outputs`} className="inline-flex items-center gap-1 text-violet-300 underline">
          <Scissors className="h-4 w-4" aria-hidden /> Shorts and versions
        </Link>
      ) : null}
    </div>
  );
}
