import type { ActionFunctionArgs } from "@remix-run/node";
import { signOut } from "~/server/auth.server";
import { methodNotAllowed } from "~/server/api.server";

// POST /api/logout: the Sign Out button's form. Ends the session and goes back to "/". A GET is refused
// (405): a link or an image on another site must not be able to sign anyone out.
export function loader() {
  return methodNotAllowed(["POST"], "Sign out with the Sign Out button: /api/logout takes a POST.");
}

export function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["POST"], "Sign out with the Sign Out button: /api/logout takes a POST.");
  return signOut(request);
}
