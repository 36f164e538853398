import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { signOut } from "~/server/auth.server";

// /api/logout: the spec's Sign Out navigates here (GET); a form may POST. Ends the session, back to "/".
export function loader({ request }: LoaderFunctionArgs) {
  return signOut(request);
}

export function action({ request }: ActionFunctionArgs) {
  return signOut(request);
}
