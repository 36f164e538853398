import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { IMAGE_SOURCES } from "~/lib/image-source";
import { methodNotAllowed, parseJsonBody } from "~/server/api.server";
import { requireUserId } from "~/server/auth.server";
import { requireCurrentProject } from "~/core/projects.server";
import { getImageSource, setImageSource } from "~/server/scene-media.server";

const BodySchema = z.object({ imageSource: z.enum(IMAGE_SOURCES, { message: `imageSource must be one of: ${IMAGE_SOURCES.join(", ")}` }) });


// GET /api/image-source: which source the current project's scene images come from.
export async function loader({ request }: LoaderFunctionArgs) {
  const userId = await requireUserId(request);
  return Response.json(await getImageSource(userId, await requireCurrentProject(userId, "imageSource")));
}

// PUT /api/image-source {imageSource}: remember the choice for the current project.
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "PUT") return methodNotAllowed(["GET", "HEAD", "PUT"], "Use PUT");
  const userId = await requireUserId(request);
  const { imageSource } = await parseJsonBody(request, BodySchema);
  return Response.json(await setImageSource(userId, await requireCurrentProject(userId, "imageSource"), imageSource));
}
