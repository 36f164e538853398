import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { methodNotAllowed, parseJsonBody } from "~/server/api.server";
import { requireUserId } from "~/server/auth.server";
import { ConfigUpdateSchema, getPublicConfig, updateConfig } from "~/core/settings.server";

const noStore = { "Cache-Control": "no-store" };

// GET /api/config: the user's settings; saved secrets appear only as their length (for the masked placeholder).
export async function loader({ request }: LoaderFunctionArgs) {
  const userId = await requireUserId(request);
  return Response.json(await getPublicConfig(userId), { headers: noStore });
}

// PUT /api/config: saves the fields sent; secrets are encrypted before they are stored.
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "PUT") return methodNotAllowed(["GET", "HEAD", "PUT"], "Use PUT to save settings.");
  const userId = await requireUserId(request);
  const update = await parseJsonBody(request, ConfigUpdateSchema);
  return Response.json(await updateConfig(userId, update), { headers: noStore });
}
