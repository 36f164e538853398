// The publish page's data (issue 49): the YouTube upload page's, plus what the one chooser for YouTube, TikTok and
// Instagram needs: the video's facts for the platforms' rules (its frame rate and size read from the file) and
// whether AI made it (the synthetic-media switch and TikTok's AI-generated label are preset from it, decision 240).
import { prisma } from "~/core/db.server";
import { getCurrentProject } from "~/core/projects.server";
import { aiMadeForProject } from "~/core/platforms/video-origin.server";
import type { PlatformVideoFacts } from "~/lib/platform-rules";
import { aiMadeSummary, type AiMadeVerdict } from "~/lib/synthetic-media";
import { getUploadPageData } from "../youtube-upload.server";
import { videoFacts } from "./platform-posts.server";

export type AiMadeView = AiMadeVerdict & { summary: string };

export async function getPublishPageData(user: { id: string; email: string }) {
  const [upload, project] = await Promise.all([getUploadPageData(user), getCurrentProject(user.id)]);
  const video = project ? await prisma.renderedVideo.findFirst({ where: { projectId: project.id, status: "completed", videoUrl: { not: null } }, orderBy: { createdAt: "desc" } }) : null;
  const facts: PlatformVideoFacts | null = video ? await videoFacts(user.id, video) : null;
  const verdict = project ? await aiMadeForProject(project.id) : { declare: false, reasons: [] };
  const aiMade: AiMadeView = { ...verdict, summary: aiMadeSummary(verdict) };
  return { ...upload, platformFacts: facts, aiMade };
}
