// The video's facts beyond its file (issue 50): how much of it moves (clips, AI clips, stills) and how many scenes
// passed the check against what is said. Read from the current project's storyboard.
import { motionShare, sceneMotionKind, type VideoFacts } from "~/lib/motion-share";
import { prisma } from "~/core/db.server";
import { getCurrentProject } from "~/core/projects.server";
import { sceneCheckSummary } from "./scene-check.server";

export async function getVideoFacts(userId: string): Promise<VideoFacts> {
  const project = await getCurrentProject(userId);
  if (!project) return null;
  const [cells, generated, sceneCheck] = await Promise.all([
    prisma.storyboardCell.findMany({ where: { storyboard: { projectId: project.id } }, select: { cellIndex: true, clipUrl: true, imageSource: true, mediaCredit: true, audioDuration: true, estimatedDuration: true } }),
    prisma.clipGeneration.findMany({ where: { projectId: project.id, userId, status: "succeeded" }, select: { cellIndex: true } }),
    sceneCheckSummary(project.id),
  ]);
  const aiCells = new Set(generated.map((g) => g.cellIndex));
  const motion = motionShare(cells.map((c) => ({ seconds: c.audioDuration ?? c.estimatedDuration, kind: sceneMotionKind(c, aiCells.has(c.cellIndex)) })));
  return { motion, sceneCheck };
}
