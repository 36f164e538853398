import type { LoaderFunctionArgs } from "@remix-run/node";
import { startSignIn } from "~/server/auth.server";

// GET /api/login (a browser navigation): off to the identity provider, PKCE and state in a short-lived cookie.
export function loader({ request }: LoaderFunctionArgs) {
  return startSignIn(request);
}
