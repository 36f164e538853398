import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { FOLLOW_VIDEO, TRANSITION_CHOICES } from "~/lib/transitions";
import { methodNotAllowed, parseJsonBody } from "~/server/api.server";
import { requireUserId } from "~/server/auth.server";
import { requireCurrentProject } from "~/core/projects.server";
import { getTransitions, saveTransitions } from "~/core/transitions.server";

const Choice = z.enum(TRANSITION_CHOICES, { message: `a transition is one of: ${TRANSITION_CHOICES.join(", ")}` });
const BodySchema = z.object({
  kind: Choice.optional(),
  seconds: z.number().min(0.2, "A transition lasts at least 0.2 s").max(1.5, "A transition lasts at most 1.5 s").optional(),
  /** per scene, by its index: overrides the video's */
  perScene: z.record(z.string().regex(/^\d{1,3}$/, "scenes are named by their index"), z.union([Choice, z.literal(FOLLOW_VIDEO)])).optional(),
});


// GET /api/transitions: the current video's transitions between scenes.
export async function loader({ request }: LoaderFunctionArgs) {
  const userId = await requireUserId(request);
  return Response.json(await getTransitions((await requireCurrentProject(userId, "kind")).id), { headers: { "Cache-Control": "no-store" } });
}

// PUT /api/transitions {kind?, seconds?, perScene?}: choose the video's transition, its length, or a scene's own.
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "PUT") return methodNotAllowed(["GET", "HEAD", "PUT"], "Use PUT");
  const userId = await requireUserId(request);
  const project = await requireCurrentProject(userId, "kind");
  const body = await parseJsonBody(request, BodySchema);
  return Response.json(await saveTransitions(project.id, body));
}
