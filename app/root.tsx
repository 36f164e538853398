import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import {
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  isRouteErrorResponse,
  useLoaderData,
  useNavigation,
  useRouteError,
  useRevalidator,
  useRouteLoaderData,
} from "@remix-run/react";
import { QueryClientProvider } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { z } from "zod";
import { useNonce } from "~/components/layout/csp-nonce";
import { DEFAULT_FAVICON, useGlobalBranding } from "~/components/layout/global-branding";
import { NavigationHeader } from "~/components/nav/navigation-header";
import { Toaster } from "~/components/ui/toaster";
import { pageMeta } from "~/lib/meta";
import { createQueryClient } from "~/lib/query-client";
import { getUser, isSignedInPage, signedOutRedirect } from "~/server/auth.server";
import { getGlobalBranding } from "~/server/branding.server";
import { prisma } from "~/core/db.server";
import { getAccessLevel, isBillingEnabled, isOwner } from "~/core/permissions.server";
import { getNavigationGates } from "~/core/projects.server";
import stylesheet from "~/tailwind.css?url";

// Scripts run under a nonce-only CSP (decision 052): in the browser zod must not probe for eval (`new Function`),
// which the browser reports as a violation even though zod catches it. jitless parsing is the same, only slower.
if (typeof document !== "undefined") z.config({ jitless: true });

export const links: LinksFunction = () => [{ rel: "stylesheet", href: stylesheet }];

// Pages without a `meta` of their own (the 404 page, errors) keep this one.
export const meta: MetaFunction = () => pageMeta("Reelsmith");

// Who is signed in, the branding, and the header's gates, all decided on the server so the first paint is
// right. Signed out, the signed-in pages lead to the landing page at "/".
export async function loader({ request }: LoaderFunctionArgs) {
  const [user, globalBranding] = await Promise.all([getUser(request), getGlobalBranding()]);
  if (!user) {
    const { pathname } = new URL(request.url);
    if (isSignedInPage(pathname)) throw signedOutRedirect(pathname);
    return { session: null, branding: globalBranding };
  }
  const [accessLevel, navigation, settings] = await Promise.all([
    getAccessLevel(user),
    getNavigationGates(user.id),
    prisma.userSettings.findUnique({ where: { userId: user.id }, select: { customLogoUrl: true } }),
  ]);
  return {
    session: {
      user: { id: user.id, email: user.email, name: user.name, avatarUrl: user.avatarUrl },
      isOwner: isOwner(user),
      accessLevel,
      selfHosted: !isBillingEnabled(),
      gates: navigation.gates,
      currentProject: navigation.currentProject,
    },
    branding: { ...globalBranding, customLogoUrl: globalBranding.customLogoUrl ?? settings?.customLogoUrl ?? null },
  };
}

// The header's gates follow the project as it advances: recompute them on every navigation.
export const shouldRevalidate = () => true;

export function Layout({ children }: { children: React.ReactNode }) {
  const data = useRouteLoaderData<typeof loader>("root");
  const nonce = useNonce();
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <link rel="icon" href={data?.branding.customFaviconUrl || DEFAULT_FAVICON} />
        <Meta />
        <Links />
      </head>
      <body className="min-h-screen">
        {children}
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

function SignedInChrome({ children }: { children: React.ReactNode }) {
  const { session, branding: fromServer } = useLoaderData<typeof loader>();
  const branding = useGlobalBranding(fromServer, Boolean(session));
  return (
    <>
      {session ? (
        <NavigationHeader
          logoUrl={branding.customLogoUrl}
          gates={session.gates}
          hasCurrentProject={Boolean(session.currentProject)}
          accessLevel={session.accessLevel}
          selfHosted={session.selfHosted}
          userName={session.user.name ?? session.user.email}
        />
      ) : null}
      {children}
    </>
  );
}

function PendingIndicator() {
  const navigation = useNavigation();
  if (navigation.state !== "loading") return null;
  return (
    <div role="status" className="fixed bottom-4 left-1/2 z-50 -translate-x-1/2 rounded-full bg-slate-800 px-4 py-1.5 text-sm text-slate-200 shadow-lg">
      Loading...
    </div>
  );
}

export default function App() {
  const [queryClient] = useState(createQueryClient);
  return (
    <QueryClientProvider client={queryClient}>
      <SignedInChrome>
        <Outlet />
      </SignedInChrome>
      <PendingIndicator />
      <Toaster />
    </QueryClientProvider>
  );
}

/** The sentence of a JSON error answer ({ message }), e.g. the 503 "Reelsmith is busy" one. */
function messageOf(data: unknown): string | null {
  return data && typeof data === "object" && typeof (data as { message?: unknown }).message === "string" ? (data as { message: string }).message : null;
}

/**
 * A part of Reelsmith is down or busy (503 from app/server/host/busy.server.ts): say so in words, and try again every
 * few seconds, so the page comes back by itself once the part does (issue 31).
 */
function ComingBack({ message }: { message: string }) {
  const revalidator = useRevalidator();
  useEffect(() => {
    const timer = setInterval(() => {
      if (revalidator.state === "idle") revalidator.revalidate();
    }, RETRY_UNAVAILABLE_MS);
    return () => clearInterval(timer);
  }, [revalidator]);
  return (
    <main className="mx-auto flex min-h-screen max-w-xl flex-col items-center justify-center gap-4 p-8 text-center">
      <h1 className="text-3xl font-bold">Reelsmith will be back in a moment</h1>
      <p className="text-slate-300" role="status">
        {message}
      </p>
      <p className="text-sm text-slate-400">{revalidator.state === "loading" ? "Trying again..." : "This page tries again every few seconds."}</p>
    </main>
  );
}

const RETRY_UNAVAILABLE_MS = 5000;

export function ErrorBoundary() {
  const error = useRouteError();
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  const unavailable = isRouteErrorResponse(error) && error.status === 503 ? messageOf(error.data) : null;
  if (unavailable) return <ComingBack message={unavailable} />;
  return (
    <main className="mx-auto flex min-h-screen max-w-xl flex-col items-center justify-center gap-4 p-8 text-center">
      <h1 className="text-3xl font-bold">{notFound ? "Page Not Found" : "Something went wrong"}</h1>
      <p className="text-slate-400">
        {notFound
          ? "The page you are looking for does not exist."
          : isRouteErrorResponse(error)
            ? `${error.status}: ${typeof error.data === "string" ? error.data : (messageOf(error.data) ?? error.statusText)}`
            : "An unexpected error occurred. Please try again."}
      </p>
      <a href="/" className="text-violet-300 underline">
        Back to Home
      </a>
    </main>
  );
}
