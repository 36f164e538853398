import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { methodNotAllowed, parseJsonBody } from "~/server/api.server";
import { requireUser } from "~/server/auth.server";
import { clearErrorLogs, listErrorLogs, logError } from "~/core/error-log.server";
import { isOwner } from "~/core/permissions.server";

const NewEntry = z.object({
  message: z.string().trim().min(1, "Describe the error.").max(4000),
  type: z.string().trim().min(1, "Give the error a type.").max(100),
});

// The owner sees and clears the whole instance's log; everybody else only their own entries.
const scopeFor = (user: Parameters<typeof isOwner>[0]): "all" | "own" => (isOwner(user) ? "all" : "own");

// GET /api/error-logs: newest first.
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const logs = await listErrorLogs({ userId: user.id, scope: scopeFor(user) });
  return Response.json(logs, { headers: { "Cache-Control": "no-store" } });
}

// POST /api/error-logs { message, type }: records an error seen in the browser. DELETE: clears the log.
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  if (request.method === "POST") {
    const entry = await parseJsonBody(request, NewEntry);
    return Response.json(await logError({ userId: user.id, ...entry }), { status: 201 });
  }
  if (request.method === "DELETE") {
    const deleted = await clearErrorLogs({ userId: user.id, scope: scopeFor(user) });
    return Response.json({ success: true, deleted });
  }
  return methodNotAllowed(["GET", "HEAD", "POST", "DELETE"], "Use GET, POST or DELETE on /api/error-logs.");
}
