import type { LoaderFunctionArgs } from "@remix-run/node";
import { finishSignIn } from "~/server/auth.server";

// GET /api/auth/callback: the identity provider's redirect back; signs in, or goes to /login-failed.
export function loader({ request }: LoaderFunctionArgs) {
  return finishSignIn(request);
}
