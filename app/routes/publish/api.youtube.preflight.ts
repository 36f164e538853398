import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireUserId } from "~/server/auth.server";
import { getPreflightFacts } from "~/server/preflight.server";

// GET /api/youtube/preflight: what the upload's pre-flight check knows about the current project's video (size,
// length, measured loudness, caption track), its approved thumbnail (type, bytes) and the chapters its scenes make.
export async function loader({ request }: LoaderFunctionArgs) {
  const userId = await requireUserId(request);
  return Response.json(await getPreflightFacts(userId), { headers: { "Cache-Control": "no-store" } });
}
