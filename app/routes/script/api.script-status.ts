import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireUserId } from "~/server/auth.server";
import { getCurrentProject } from "~/server/projects.server";
import { getScriptStatus } from "~/server/script.server";

// GET /api/script-status: the current project's script, polled by the header (2 s) and the script page (3 s).
export async function loader({ request }: LoaderFunctionArgs) {
  const userId = await requireUserId(request);
  const status = await getScriptStatus(await getCurrentProject(userId));
  return Response.json(status, { headers: { "Cache-Control": "no-store" } });
}
