import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireUserId } from "~/server/auth.server";
import { getGlobalBranding } from "~/server/branding.server";

// GET /api/global-branding: the owner's logo and favicon. Signed-out pages get them from the root loader.
export async function loader({ request }: LoaderFunctionArgs) {
  await requireUserId(request);
  return Response.json(await getGlobalBranding());
}
