// Activities act for the user named in their input: before touching a project they check it is that user's
// (issue 20). Temporal is not reachable from outside (docker-compose.yml), but a run started by any other means
// (the Temporal UI, a stray script) still cannot make one user's keys or quota work on another user's project.
import { ApplicationFailure } from "@temporalio/activity";
import { prisma } from "~/core/db.server";

export const PROJECT_NOT_OWNED = "ProjectNotOwned";

export const projectNotOwned = () =>
  ApplicationFailure.create({ message: "The project does not belong to the user this run was started for.", type: PROJECT_NOT_OWNED, nonRetryable: true });

/** Throws a non-retryable failure unless `projectId` is `userId`'s project. */
export async function requireProjectOwner(userId: string, projectId: string): Promise<void> {
  const owned = await prisma.project.findFirst({ where: { id: projectId, userId }, select: { id: true } });
  if (!owned) throw projectNotOwned();
}
