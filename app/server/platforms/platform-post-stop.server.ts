// Stopping TikTok/Instagram posts whose rows are about to go (a Disconnect, a deleted project): the rows cascade
// from the connection and the project, but each post's workflow (platform-post-<postId>) would go on without them:
// a scheduled post would fire on its day, an upload under way could still go live. So their workflows are
// cancelled (and terminated after a grace) before the rows are deleted.
import { prisma } from "~/core/db.server";
import { platformPostWorkflowId } from "../../../workflows/shared/platform-post";
import { stopWorkflows } from "../workflow-stop.server";

/** The states in which a post's workflow may still be running. */
const OPEN_STATES = ["scheduled", "posting", "processing"];

/** Stops the workflows of the creator's open posts of a connection or a project; answers how many posts were open. */
export async function stopPlatformPostWorkflows(where: { userId: string; connectionId?: string; projectId?: string }): Promise<number> {
  const posts = await prisma.platformPost.findMany({ where: { ...where, status: { in: OPEN_STATES } }, select: { id: true, workflowId: true } });
  await stopWorkflows(
    posts.map((p) => p.workflowId ?? platformPostWorkflowId(p.id)),
    where.connectionId ? "The account was disconnected" : "The project was deleted",
  );
  return posts.length;
}
