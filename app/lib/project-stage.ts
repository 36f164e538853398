// Where the dashboard opens a project: the page of the step it has reached, and never a page that does not
// exist (a stage whose screen is not built falls back to the nearest earlier screen that is).
import type { ProjectStage } from "~/server/projects.server";

export const STAGE_STEPS: { stage: ProjectStage; label: string; pages: string[] }[] = [
  // A project's next step: script written -> storyboard; scenes -> their media; media ready -> music or render...
  { stage: "script", label: "Script", pages: ["/script"] },
  { stage: "storyboard", label: "Storyboard", pages: ["/storyboard"] },
  { stage: "media", label: "Media", pages: ["/music", "/render"] },
  { stage: "music", label: "Music", pages: ["/music", "/render"] },
  { stage: "rendered", label: "Rendered", pages: ["/upload", "/render"] },
  { stage: "uploaded", label: "Uploaded", pages: ["/upload", "/render"] },
];

export const stageIndex = (stage: ProjectStage) => STAGE_STEPS.findIndex((s) => s.stage === stage);

/** The first of the stage's pages whose screen exists. */
export function stagePage(stage: ProjectStage, notBuilt: ReadonlySet<string>): string {
  const step = STAGE_STEPS[stageIndex(stage)] ?? STAGE_STEPS[0]!;
  return step.pages.find((page) => !notBuilt.has(page)) ?? "/dashboard";
}
