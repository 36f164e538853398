import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { methodNotAllowed, parseJsonBody } from "~/server/api.server";
import { requireUserId } from "~/server/auth.server";
import { getProjectForUser } from "~/core/projects.server";
import { createShort, getShortOptions, SHORT_DEFAULT_SECONDS, SHORT_MAX_SECONDS, ShortRequestSchema } from "~/server/shorts.server";

const QuerySchema = z.coerce.number().int().min(10).max(SHORT_MAX_SECONDS).catch(SHORT_DEFAULT_SECONDS);

// GET /api/projects/{id}/shorts?maxSeconds=60: the video's scenes and suggested runs for Shorts (issue 51).
export async function loader({ request, params }: LoaderFunctionArgs) {
  const userId = await requireUserId(request);
  const maxSeconds = QuerySchema.parse(new URL(request.url).searchParams.get("maxSeconds") ?? undefined);
  return Response.json(await getShortOptions(userId, params.id!, maxSeconds), { headers: { "Cache-Control": "no-store" } });
}

// POST /api/projects/{id}/shorts { fromScene, toScene, hook?, maxSeconds? }: a Short, a new 9:16 project -> 201.
export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["GET", "POST"], "Use POST to make a Short.");
  const userId = await requireUserId(request);
  // the owner before the body: another creator's id is a 404 whatever was sent (decision 198)
  await getProjectForUser(userId, params.id!);
  const body = await parseJsonBody(request, ShortRequestSchema);
  return Response.json(await createShort(userId, params.id!, body), { status: 201 });
}
