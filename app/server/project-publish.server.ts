// Render and publish a project by its id (issue 51, decision 247): a Short or a version is a project of its own, not a
// make-video run, so /api/v1 and MCP need doors that name it. Each calls what the Render and Upload pages call (the
// same render workflow and quality rules, the same YouTube upload with its pre-flight checks, Premium and connection
// refusals), for the project named instead of the creator's current one; the owner is checked first (404 otherwise).
import "zod-openapi";
import { z } from "zod";
import { PRIVACY_STATUSES, YOUTUBE_CATEGORY_IDS, INITIAL_CATEGORY_ID } from "~/lib/constants";
import { RENDER_HEIGHTS } from "~/lib/video-format";
import { prisma } from "~/core/db.server";
import { getProjectForUser } from "~/core/projects.server";
import { renderProgressFor, startRenderOf } from "./render.server";
import { startYoutubeUpload, UploadBodySchema, youtubeUploadStatusFor } from "./youtube-upload.server";

export const RenderProjectSchema = z
  .object({
    quality: z
      .union(RENDER_HEIGHTS.map((h) => z.literal(h)) as unknown as [z.ZodLiteral<720>, z.ZodLiteral<1080>, z.ZodLiteral<2160>], { error: `quality must be one of ${RENDER_HEIGHTS.join(", ")}.` })
      .optional()
      .describe("The render's height: 720 (every plan), 1080 or 2160 (Premium). Default: HD when the plan allows it."),
  })
  .strict()
  .meta({ id: "RenderProject", example: { quality: 1080 } });

/** The Upload page's fields, the title defaulting to the project's; the video is the project's newest finished render. */
export const PublishProjectSchema = UploadBodySchema.omit({ videoPath: true, thumbnailUrl: true, title: true, categoryId: true })
  .extend({
    title: UploadBodySchema.shape.title.optional().describe("Default: the project's title."),
    categoryId: z.enum(YOUTUBE_CATEGORY_IDS, { error: `categoryId must be one of ${YOUTUBE_CATEGORY_IDS.join(", ")}.` }).default(INITIAL_CATEGORY_ID),
    privacyStatus: z.enum(PRIVACY_STATUSES).default("private"),
  })
  .strict()
  .meta({ id: "PublishProject", example: { title: "Why do honeybees dance? #Shorts", privacyStatus: "public" } });
export type PublishProject = z.output<typeof PublishProjectSchema>;

export const ProjectStatusSchema = z
  .object({
    projectId: z.string(),
    title: z.string(),
    kind: z.enum(["video", "short", "version"]).describe("A video of its own, a Short cut from another, or a version in another language."),
    sourceProjectId: z.string().nullable(),
    render: z.object({ active: z.boolean(), stage: z.string(), percent: z.number(), error: z.string().nullable() }),
    video: z
      .object({ renderId: z.string(), width: z.number().nullable(), height: z.number().nullable(), durationSeconds: z.number().nullable(), completedAt: z.string().nullable() })
      .nullable()
      .describe("The newest finished render: what publish uploads."),
    youtube: z.object({ status: z.enum(["idle", "uploading", "completed", "error"]), url: z.string().nullable(), error: z.string().nullable() }),
  })
  .meta({ id: "ProjectStatus" });
export type ProjectStatus = z.infer<typeof ProjectStatusSchema>;

/** Where a project is: its render, its newest finished video, its YouTube upload. */
export async function getProjectStatus(userId: string, projectId: string): Promise<ProjectStatus> {
  const project = await getProjectForUser(userId, projectId);
  const [progress, latest, upload] = await Promise.all([
    renderProgressFor(project),
    prisma.renderedVideo.findFirst({ where: { projectId: project.id, status: "completed", videoUrl: { not: null } }, orderBy: { createdAt: "desc" } }),
    youtubeUploadStatusFor(project),
  ]);
  return {
    projectId: project.id,
    title: project.title,
    kind: project.derivedKind === "short" || project.derivedKind === "version" ? project.derivedKind : "video",
    sourceProjectId: project.sourceProjectId,
    render: { active: progress.isActive, stage: progress.stage, percent: Math.round(progress.progress), error: progress.error ?? null },
    video: latest ? { renderId: latest.id, width: latest.width, height: latest.height, durationSeconds: latest.durationSeconds, completedAt: latest.completedAt?.toISOString() ?? null } : null,
    youtube: { status: upload.status, url: upload.url, error: upload.status === "error" ? (upload.error ?? null) : null },
  };
}

/** Starts rendering the project (409 while one runs or a scene lacks its picture or voiceover; 402 above the plan). */
export async function renderProject(userId: string, projectId: string, quality?: z.output<typeof RenderProjectSchema>["quality"]) {
  const project = await getProjectForUser(userId, projectId);
  return { projectId: project.id, ...(await startRenderOf(userId, project, quality)) };
}

/** Uploads the project's newest finished render to YouTube (Premium, YouTube connected; the pre-flight checks apply). */
export async function publishProject(userId: string, projectId: string, body: PublishProject) {
  const project = await getProjectForUser(userId, projectId);
  const started = await startYoutubeUpload(userId, UploadBodySchema.parse({ ...body, title: body.title ?? project.title.slice(0, 100) }), project);
  return { projectId: project.id, uploadId: started.uploadId };
}

export const RenderStartedSchema = z
  .object({ projectId: z.string(), renderId: z.string(), width: z.number(), height: z.number() })
  .meta({ id: "RenderStarted", description: "The render started; GET /api/v1/projects/{id} follows it." });
export const PublishStartedSchema = z
  .object({ projectId: z.string(), uploadId: z.string() })
  .meta({ id: "PublishStarted", description: "The upload started; GET /api/v1/projects/{id} follows it (youtube.url once done)." });
