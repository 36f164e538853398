// The status routes' reads, each one hand-written query: one database round trip per poll (decision 186, second
// round). A page polls every 2-3 s, so a poll's own reads are most of what it costs: render progress was three
// Prisma queries (scene count, running render, newest render) and every Prisma query adds its own client-side
// work. These read only the columns the answers need, through indexes that exist (Storyboard.projectId unique,
// StoryboardCell (storyboardId, cellIndex) unique, RenderedVideo (projectId, createdAt), Script.projectId unique).
// The answers are still built by the stage modules (render.server, script.server, storyboard.server).
import type { JobStatus } from "~/generated/prisma/client";
import { prisma } from "~/core/db.server";

/** A render row as render progress needs it. */
export type RenderRowForProgress = { id: string; status: JobStatus; error: string | null; createdAt: Date; completedAt: Date | null };

export type RenderProgressRead = {
  totalScenes: number;
  /** the newest render still processing, if any */
  active: RenderRowForProgress | null;
  /** the newest render of any status, if any */
  last: RenderRowForProgress | null;
};

type RenderProgressRow = {
  totalScenes: number;
  activeId: string | null;
  activeCreatedAt: Date | null;
  lastId: string | null;
  lastStatus: JobStatus | null;
  lastError: string | null;
  lastCreatedAt: Date | null;
  lastCompletedAt: Date | null;
};

/** The project's scene count, its newest processing render and its newest render, in one query. */
export async function readRenderProgress(projectId: string): Promise<RenderProgressRead> {
  const [row] = await prisma.$queryRaw<RenderProgressRow[]>`
    SELECT
      (SELECT count(*)::int FROM "StoryboardCell" c JOIN "Storyboard" s ON s.id = c."storyboardId" WHERE s."projectId" = ${projectId}) AS "totalScenes",
      a.id AS "activeId", a."createdAt" AS "activeCreatedAt",
      l.id AS "lastId", l.status::text AS "lastStatus", l.error AS "lastError", l."createdAt" AS "lastCreatedAt", l."completedAt" AS "lastCompletedAt"
    FROM (SELECT 1) AS one
    LEFT JOIN LATERAL (
      SELECT id, "createdAt" FROM "RenderedVideo" WHERE "projectId" = ${projectId} AND status = 'processing' ORDER BY "createdAt" DESC LIMIT 1
    ) a ON true
    LEFT JOIN LATERAL (
      SELECT id, status, error, "createdAt", "completedAt" FROM "RenderedVideo" WHERE "projectId" = ${projectId} ORDER BY "createdAt" DESC LIMIT 1
    ) l ON true`;
  const active: RenderRowForProgress | null =
    row?.activeId && row.activeCreatedAt ? { id: row.activeId, status: "processing", error: null, createdAt: row.activeCreatedAt, completedAt: null } : null;
  const last: RenderRowForProgress | null =
    row?.lastId && row.lastStatus && row.lastCreatedAt
      ? { id: row.lastId, status: row.lastStatus, error: row.lastError, createdAt: row.lastCreatedAt, completedAt: row.lastCompletedAt }
      : null;
  return { totalScenes: row?.totalScenes ?? 0, active, last };
}

/** A script row as script status needs it (not the word counts or timestamps it does not show). */
export type ScriptRowForStatus = {
  status: JobStatus;
  text: string | null;
  error: string | null;
  workflowId: string | null;
  startedAt: Date | null;
  createdAt: Date;
  writtenBy: string | null;
};

/** The project's script, if any, in one query. */
export async function readScriptForStatus(projectId: string): Promise<ScriptRowForStatus | null> {
  const [row] = await prisma.$queryRaw<ScriptRowForStatus[]>`
    SELECT status::text AS status, text, error, "workflowId", "startedAt", "createdAt", "writtenBy"
    FROM "Script" WHERE "projectId" = ${projectId}`;
  return row ?? null;
}

/** A storyboard row as storyboard status needs it, with its scene count. */
export type StoryboardRowForStatus = {
  id: string;
  title: string;
  status: JobStatus;
  error: string | null;
  workflowId: string | null;
  updatedAt: Date;
  splitBy: string | null;
  cellCount: number;
};

/** The project's storyboard, if any, with its scene count, in one query. */
export async function readStoryboardForStatus(projectId: string): Promise<StoryboardRowForStatus | null> {
  const [row] = await prisma.$queryRaw<StoryboardRowForStatus[]>`
    SELECT s.id, s.title, s.status::text AS status, s.error, s."workflowId", s."updatedAt", s."splitBy",
      (SELECT count(*)::int FROM "StoryboardCell" c WHERE c."storyboardId" = s.id) AS "cellCount"
    FROM "Storyboard" s WHERE s."projectId" = ${projectId}`;
  return row ?? null;
}
