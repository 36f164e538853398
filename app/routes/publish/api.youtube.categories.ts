import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireUserId } from "~/server/auth.server";
import { getUserSettings } from "~/core/settings.server";
import { listYoutubeCategories } from "~/server/youtube.server";
import { DEFAULT_CATEGORY_ID } from "~/lib/constants";

// GET /api/youtube/categories: the spec's allowed category ids with their names, and the creator's default.
export async function loader({ request }: LoaderFunctionArgs) {
  const userId = await requireUserId(request);
  const [{ categories, source }, settings] = await Promise.all([listYoutubeCategories(userId), getUserSettings(userId)]);
  return Response.json(
    { categories, source, preferredCategoryId: settings.youtubePreferredCategory ?? DEFAULT_CATEGORY_ID },
    { headers: { "Cache-Control": "no-store" } },
  );
}
