import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { YOUTUBE_CATEGORY_IDS } from "~/lib/constants";
import { methodNotAllowed, parseJsonBody } from "~/server/api.server";
import { requireUserId } from "~/server/auth.server";
import { setPreferredCategory } from "~/server/youtube.server";

const BodySchema = z.object({ categoryId: z.enum(YOUTUBE_CATEGORY_IDS, { error: `categoryId must be one of ${YOUTUBE_CATEGORY_IDS.join(", ")}.` }) }).strict();

// PUT /api/youtube/preferred-category { categoryId }: the category the upload form starts with.
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "PUT") return methodNotAllowed(["PUT"], "Use PUT to save the default category.");
  const userId = await requireUserId(request);
  const { categoryId } = await parseJsonBody(request, BodySchema);
  return Response.json({ success: true, ...(await setPreferredCategory(userId, categoryId)) });
}
