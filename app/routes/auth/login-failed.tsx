import type { MetaFunction } from "@remix-run/node";
import { useLoaderData, useRouteLoaderData, useSearchParams } from "@remix-run/react";
import { AlertTriangle, CheckCircle2, ExternalLink } from "lucide-react";
import { Button } from "~/components/ui/button";
import { signInErrorMessage } from "~/lib/sign-in-errors";
import type { loader as rootLoader } from "~/root";
import { signInProviderKind } from "~/server/auth.server";
import { pageMeta } from "~/lib/meta";

export const meta: MetaFunction = () => pageMeta("Sign-in failed · Reelsmith");

export const GOOGLE_CLOUD_CONSOLE_URL = "https://console.cloud.google.com/apis/credentials/consent";

/** The spec's access-denied branch: the OAuth app is in testing mode and this e-mail is not a test user. */
export function isAccessDenied(error: string, description: string): boolean {
  return error === "access_denied" || description.includes("403");
}

/** The Google help (testing mode, Test users, Cloud Console) applies only when Google is the sign-in provider. */
export function showsGoogleHelp(provider: "builtin" | "google" | "oidc", error: string, description: string): boolean {
  return provider === "google" && isAccessDenied(error, description);
}

// Which sign-in provider is in use: the Google-specific help (testing mode, Cloud Console) only applies to Google.
export async function loader() {
  return { provider: signInProviderKind() };
}

// /login-failed?error=...&description=... : always available, signed in or not.
export default function LoginFailed() {
  const { provider } = useLoaderData<typeof loader>();
  const root = useRouteLoaderData<typeof rootLoader>("root");
  const [params] = useSearchParams();
  const error = params.get("error") ?? "";
  const description = params.get("description") ?? "";
  // Only known texts: the query string is anyone's to write.
  const known = signInErrorMessage(error);
  const signedInAs = root?.session?.user.email ?? null;
  if (signedInAs) {
    // an old link or the back button: this attempt failed, but the visitor is signed in
    return (
      <main className="mx-auto flex min-h-[60vh] max-w-xl flex-col justify-center gap-6 px-6 py-12">
        <div className="flex items-center gap-3">
          <CheckCircle2 className="h-8 w-8 shrink-0 text-emerald-400" aria-hidden />
          <h1 className="text-3xl font-bold">You are signed in</h1>
        </div>
        <p className="text-slate-300" data-testid="signed-in-notice">
          This page reports a sign-in attempt that did not complete{known ? ` (${known})` : ""}, but you are signed in as{" "}
          <strong className="break-all text-slate-100">{signedInAs}</strong>. Nothing needs fixing.
        </p>
        <Button asChild className="self-start">
          <a href="/dashboard">Go to the Dashboard</a>
        </Button>
      </main>
    );
  }
  // the Google help only when Google is the provider; the built-in provider never has a testing mode
  const denied = showsGoogleHelp(provider, error, description);
  return (
    <main className="mx-auto flex min-h-[80vh] max-w-xl flex-col justify-center gap-6 px-6 py-12">
      <div className="flex items-center gap-3">
        <AlertTriangle className="h-8 w-8 shrink-0 text-amber-400" aria-hidden />
        <h1 className="text-3xl font-bold">{denied ? "Access Denied" : "Sign-in Failed"}</h1>
      </div>
      {denied ? (
        <div className="space-y-4 text-slate-300" data-testid="access-denied">
          <p>
            The Google OAuth app is in <strong>testing mode</strong>, and your e-mail address is not authorized to sign in to
            it.
          </p>
          <p>To fix this, the app&apos;s owner can either:</p>
          <ol className="list-decimal space-y-1 pl-6">
            <li>switch the OAuth app&apos;s publishing status to Production, or</li>
            <li>add your e-mail address to the Test users list on the OAuth consent screen,</li>
          </ol>
          <p>then try signing in again.</p>
          <Button asChild variant="outline">
            <a href={GOOGLE_CLOUD_CONSOLE_URL} target="_blank" rel="noreferrer">
              <ExternalLink className="h-4 w-4" aria-hidden /> Open Google Cloud Console
            </a>
          </Button>
        </div>
      ) : (
        <div className="space-y-3 text-slate-300" data-testid="generic-failure">
          <p>Authentication failed. Please try again.</p>
          {known ? (
            <>
              <p>
                <span className="font-medium text-slate-100">Error:</span> <code className="break-all">{error}</code>
              </p>
              <p>
                <span className="font-medium text-slate-100">Description:</span> <span className="break-words">{known}</span>
              </p>
            </>
          ) : null}
        </div>
      )}
      <Button asChild className="self-start">
        <a href="/">Back to Home</a>
      </Button>
    </main>
  );
}
