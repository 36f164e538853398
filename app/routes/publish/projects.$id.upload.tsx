import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/server/auth.server";
import { setCurrentProject } from "~/core/projects.server";
import { getPublishPageData } from "~/server/platforms/publish-page.server";

export { default, meta } from "./upload";

// /projects/{id}/upload: the Upload page for one of the user's projects (it becomes the current one, as Open does).
// Another user's id answers 404 like a missing one.
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  await setCurrentProject(user.id, params.id!);
  return getPublishPageData(user);
}
