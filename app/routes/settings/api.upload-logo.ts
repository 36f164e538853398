import type { ActionFunctionArgs } from "@remix-run/node";
import { jsonError, methodNotAllowed } from "~/server/api.server";
import { requireUser } from "~/server/auth.server";
import { readDataUrlImage } from "~/server/data-url-upload.server";
import { isOwner } from "~/core/permissions.server";
import { removeBrandingImage, saveBrandingImage } from "~/server/uploads.server";

// POST /api/upload-logo { imageData, fileName }: the older page's logo upload. DELETE: removes the logo.
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  if (!isOwner(user)) return jsonError(403, "Only the owner account can change the logo.", { field: "imageData" });

  if (request.method === "DELETE") {
    const branding = await removeBrandingImage("logo");
    return Response.json({ success: true, ...branding });
  }
  if (request.method !== "POST") return methodNotAllowed(["POST", "DELETE"], "Use POST to upload a logo or DELETE to remove it.");

  const image = await readDataUrlImage(request, "logo");
  const branding = await saveBrandingImage(user.id, "logo", image);
  return Response.json({ success: true, url: branding.customLogoUrl, ...branding });
}
