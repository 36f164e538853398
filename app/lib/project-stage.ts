// Where the dashboard opens a project: the page of the step it has reached (its next thing to do).

/** How far a project has come (app/core/projects.server.ts works it out). */
export type ProjectStage = "script" | "storyboard" | "media" | "music" | "rendered" | "uploaded";

export const STAGE_STEPS: { stage: ProjectStage; label: string; page: string }[] = [
  // A project's next step: script written -> storyboard; scenes -> their media; media ready -> music or render...
  { stage: "script", label: "Script", page: "/script" },
  { stage: "storyboard", label: "Storyboard", page: "/storyboard" },
  { stage: "media", label: "Media", page: "/music" },
  { stage: "music", label: "Music", page: "/music" },
  { stage: "rendered", label: "Rendered", page: "/upload" },
  { stage: "uploaded", label: "Uploaded", page: "/upload" },
];

export const stageIndex = (stage: ProjectStage) => STAGE_STEPS.findIndex((s) => s.stage === stage);

/** The page a project at this stage opens on. */
export function stagePage(stage: ProjectStage): string {
  return (STAGE_STEPS[stageIndex(stage)] ?? STAGE_STEPS[0]!).page;
}
