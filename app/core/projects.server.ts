// Projects: one video each. A user works on one "current" project at a time (User.currentProjectId); the
// pipeline pages and the navigation header read it. Creating one enforces the free plan's limit.
import type { JobStatus, Prisma, Project, Resolution } from "~/generated/prisma/client";
import type { ProjectStage } from "~/lib/project-stage";
import { allScenesHaveMedia } from "~/lib/storyboard";
import { defaultTransitionsFor } from "~/lib/transitions";
import { resolutionValue, type ResolutionValue } from "~/lib/video-format";
import { refusal } from "./refusal.server";
import { POOL_WAIT_MS, prisma } from "./db.server";
import { FREE_PROJECT_LIMIT, assertCanCreateProject, getAccessLevel, isBillingEnabled } from "./permissions.server";

/** language, voiceId and voiceSpeed: the narration (issue 24); absent: English, its default voice, 1x. */
export type NewProject = { title: string; topic: string; resolution: Resolution; durationSeconds: number; language?: string; voiceId?: string | null; voiceSpeed?: number };

/**
 * Creates a project and makes it the user's current one (unless `makeCurrent` is false: a batch's videos leave the
 * creator's current project alone); 402 when a free account already has one.
 */
export async function createProject(userId: string, input: NewProject, { makeCurrent = true }: { makeCurrent?: boolean } = {}): Promise<Project> {
  // wait for a connection as long as any query does (POOL_WAIT_MS), not Prisma's 2 s: under a burst of
  // creations the pool is a queue, and only a pool still full after that answers "busy" (decision 130)
  return prisma.$transaction((tx) => createProjectIn(tx, userId, input, { makeCurrent }), { maxWait: POOL_WAIT_MS });
}

/**
 * createProject inside the caller's transaction, so the project is made together with what it belongs to (a
 * channel's idea claims its video in the same transaction: a crash leaves neither, decision 251).
 */
export async function createProjectIn(tx: Prisma.TransactionClient, userId: string, input: NewProject, { makeCurrent = true }: { makeCurrent?: boolean } = {}): Promise<Project> {
  // Lock the user's row so two simultaneous creations cannot both pass the free limit.
  await tx.$queryRaw`SELECT id FROM "User" WHERE id = ${userId} FOR UPDATE`;
  // through the transaction's own client: a query on the global one would need a second connection while
  // this one is held, and twenty creations at once would hold the whole pool waiting for each other
  await assertCanCreateProject(userId, tx);
  const project = await tx.project.create({
    data: {
      userId,
      title: input.title,
      topic: input.topic,
      resolution: input.resolution,
      durationSeconds: input.durationSeconds,
      language: input.language,
      voiceId: input.voiceId ?? null,
      voiceSpeed: input.voiceSpeed,
    },
  });
  if (makeCurrent) await tx.user.update({ where: { id: userId }, data: { currentProjectId: project.id } });
  // the format's transition between scenes (decision 245); a cut needs no row
  const transitions = defaultTransitionsFor(input.resolution);
  if (transitions.kind !== "none") await tx.sceneTransitions.create({ data: { projectId: project.id, ...transitions } });
  return project;
}

/** The project the user works on now: the one they opened last, else their most recently changed one. */
export async function getCurrentProject(userId: string): Promise<Project | null> {
  const user = await prisma.user.findUnique({ where: { id: userId }, select: { currentProjectId: true } });
  if (user?.currentProjectId) {
    const current = await prisma.project.findFirst({ where: { id: user.currentProjectId, userId } });
    if (current) return current;
  }
  return prisma.project.findFirst({ where: { userId }, orderBy: { updatedAt: "desc" } });
}

/** What a door says when there is no project to work on: "No storyboard yet" where the storyboard is the subject. */
const NO_STORYBOARD_MESSAGE = "No storyboard yet: create a video first.";

/**
 * The project the user works on now, or a 404 refusal naming `field` (the request's subject) when given, in `message`
 * (the storyboard's words unless told): the storyboard's doors, the music's and the uploads' ask for it the same way.
 */
export async function requireCurrentProject(userId: string, field?: string, message = NO_STORYBOARD_MESSAGE): Promise<Project> {
  const project = await getCurrentProject(userId);
  if (!project) throw refusal(404, message, field ? { field } : {});
  return project;
}

/** The user's own project, or a 404 JSON response (another user's id looks exactly like a missing one). */
export async function getProjectForUser(userId: string, projectId: string): Promise<Project> {
  const project = await prisma.project.findFirst({ where: { id: projectId, userId } });
  if (!project) throw refusal(404, "Project not found. Open one of your projects from the dashboard.");
  return project;
}

export async function setCurrentProject(userId: string, projectId: string): Promise<Project> {
  const project = await getProjectForUser(userId, projectId);
  await prisma.user.update({ where: { id: userId }, data: { currentProjectId: project.id } });
  return project;
}

// ---- how far a project has come ----

/** What the navigation gates and the dashboard's stage are computed from. */
export type ProgressSnapshot = {
  scriptStatus: JobStatus | null;
  cells: { imageUrl: string | null; audioUrl: string | null }[];
  hasCompletedMusic: boolean;
  latestVideoUrl: string | null;
  hasCompletedUpload: boolean;
};

export type NavigationGates = { script: boolean; storyboard: boolean; music: boolean; render: boolean; upload: boolean };

export const CLOSED_GATES: NavigationGates = { script: false, storyboard: false, music: false, render: false, upload: false };

/** The header's links: each appears once its condition holds for the current project. */
export function navigationGates(p: ProgressSnapshot): NavigationGates {
  const scriptStarted = p.scriptStatus === "completed" || p.scriptStatus === "processing";
  return {
    script: scriptStarted,
    storyboard: scriptStarted,
    music: allScenesHaveMedia(p.cells),
    // Music is optional, so a storyboard with all its media opens Render too, not only a
    // completed music track (the spec's gate, which would leave creators who skip music without the link).
    render: p.hasCompletedMusic || allScenesHaveMedia(p.cells),
    upload: Boolean(p.latestVideoUrl),
  };
}


/** The furthest step a project has reached. */
export function projectStage(p: ProgressSnapshot): ProjectStage {
  if (p.hasCompletedUpload) return "uploaded";
  if (p.latestVideoUrl) return "rendered";
  if (p.hasCompletedMusic) return "music";
  if (allScenesHaveMedia(p.cells)) return "media";
  if (p.cells.length > 0) return "storyboard";
  return "script";
}

/** Which of the dashboard's steps a project has really done: a tick each, from the data, not from its furthest stage. */
export type StepsDone = Record<ProjectStage, boolean>;

export function stepsDone(p: ProgressSnapshot): StepsDone {
  return {
    script: p.scriptStatus === "completed",
    storyboard: p.cells.length > 0,
    media: allScenesHaveMedia(p.cells),
    music: p.hasCompletedMusic,
    rendered: Boolean(p.latestVideoUrl),
    uploaded: p.hasCompletedUpload,
  };
}

const progressInclude = {
  script: { select: { status: true } },
  storyboard: { select: { cells: { select: { imageUrl: true, audioUrl: true } } } },
  musicTracks: { where: { status: "completed" as const }, select: { id: true }, take: 1 },
  videos: { orderBy: { createdAt: "desc" as const }, select: { videoUrl: true }, take: 1 },
  uploads: { where: { status: "completed" as const }, select: { id: true }, take: 1 },
};

type ProjectWithProgress = Project & {
  script: { status: JobStatus } | null;
  storyboard: { cells: { imageUrl: string | null; audioUrl: string | null }[] } | null;
  musicTracks: { id: string }[];
  videos: { videoUrl: string | null }[];
  uploads: { id: string }[];
};

function snapshotOf(project: ProjectWithProgress): ProgressSnapshot {
  return {
    scriptStatus: project.script?.status ?? null,
    cells: project.storyboard?.cells ?? [],
    hasCompletedMusic: project.musicTracks.length > 0,
    latestVideoUrl: project.videos[0]?.videoUrl ?? null,
    hasCompletedUpload: project.uploads.length > 0,
  };
}

export type ProjectSummary = {
  id: string;
  title: string;
  topic: string;
  resolution: ResolutionValue;
  durationSeconds: number;
  stage: ProjectStage;
  /** the steps done, each from the project's own data */
  done: StepsDone;
  isCurrent: boolean;
  createdAt: string;
  updatedAt: string;
  /** the video it was made from (a Short or a version in another language, issue 51), and which of the two */
  sourceProjectId: string | null;
  derivedKind: string | null;
  language: string;
};

export async function listProjectsWithStage(userId: string): Promise<ProjectSummary[]> {
  const [projects, current] = await Promise.all([
    prisma.project.findMany({ where: { userId }, include: progressInclude, orderBy: { updatedAt: "desc" } }),
    getCurrentProject(userId),
  ]);
  return projects.map((project) => ({
    id: project.id,
    title: project.title,
    topic: project.topic,
    resolution: resolutionValue(project.resolution),
    durationSeconds: project.durationSeconds,
    stage: projectStage(snapshotOf(project)),
    done: stepsDone(snapshotOf(project)),
    isCurrent: project.id === current?.id,
    createdAt: project.createdAt.toISOString(),
    updatedAt: project.updatedAt.toISOString(),
    sourceProjectId: project.sourceProjectId,
    derivedKind: project.derivedKind,
    language: project.language,
  }));
}

/** The header's gates for the user's current project (all closed without one). */
export async function getNavigationGates(userId: string): Promise<{ gates: NavigationGates; currentProject: { id: string; title: string } | null }> {
  const current = await getCurrentProject(userId);
  if (!current) return { gates: CLOSED_GATES, currentProject: null };
  const project = await prisma.project.findUnique({ where: { id: current.id }, include: progressInclude });
  if (!project) return { gates: CLOSED_GATES, currentProject: null };
  return { gates: navigationGates(snapshotOf(project)), currentProject: { id: project.id, title: project.title } };
}

/** GET /api/projects/{id}: the video details, the stage, and the script's state. */
export async function getProjectDetails(userId: string, projectId: string) {
  await getProjectForUser(userId, projectId);
  const [project, current] = await Promise.all([
    prisma.project.findUniqueOrThrow({ where: { id: projectId }, include: { ...progressInclude, script: { select: { status: true, wordCount: true } } } }),
    getCurrentProject(userId),
  ]);
  return {
    id: project.id,
    title: project.title,
    topic: project.topic,
    resolution: resolutionValue(project.resolution),
    duration: project.durationSeconds,
    musicVolume: project.musicVolume,
    language: project.language,
    voiceId: project.voiceId,
    voiceSpeed: project.voiceSpeed,
    stage: projectStage(snapshotOf(project)),
    isCurrent: project.id === current?.id,
    script: project.script ? { status: project.script.status, wordCount: project.script.wordCount } : null,
    latestVideoUrl: project.videos[0]?.videoUrl ?? null,
    createdAt: project.createdAt.toISOString(),
    updatedAt: project.updatedAt.toISOString(),
  };
}

/** GET /api/projects/{id}/storyboard: the spec's Storyboard shape (title, status, storyboardCells). */
export async function getProjectStoryboard(userId: string, projectId: string) {
  await getProjectForUser(userId, projectId);
  const storyboard = await prisma.storyboard.findUnique({
    where: { projectId },
    include: { cells: { orderBy: { cellIndex: "asc" } } },
  });
  if (!storyboard) throw refusal(404, "This project has no storyboard yet. Generate one from the Storyboard page.");
  return {
    title: storyboard.title,
    status: storyboard.status,
    error: storyboard.error,
    storyboardCells: storyboard.cells.map((c) => ({
      cellIndex: c.cellIndex,
      imagePrompt: c.imagePrompt,
      voiceoverText: c.voiceoverText,
      imageUrl: c.imageUrl,
      audioUrl: c.audioUrl,
      estimatedDuration: c.estimatedDuration,
    })),
  };
}

/** What the dashboard shows (at "/" and "/dashboard"). */
export async function getDashboard(user: { id: string; email: string; name: string | null }) {
  const [accessLevel, projects] = await Promise.all([getAccessLevel(user), listProjectsWithStage(user.id)]);
  return {
    userName: user.name ?? user.email,
    accessLevel,
    selfHosted: !isBillingEnabled(),
    projects,
    freeProjectLimit: FREE_PROJECT_LIMIT,
  };
}
