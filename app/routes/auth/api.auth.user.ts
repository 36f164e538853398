import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/server/auth.server";
import { getAccessLevel, isBillingEnabled, isOwner } from "~/core/permissions.server";

// GET /api/auth/user: the signed-in user, or 401 (the client treats that as signed out).
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  return Response.json({
    id: user.id,
    email: user.email,
    name: user.name,
    avatarUrl: user.avatarUrl,
    isOwner: isOwner(user),
    accessLevel: await getAccessLevel(user),
    selfHosted: !isBillingEnabled(),
  });
}
