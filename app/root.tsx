import type { LinksFunction, MetaFunction } from "@remix-run/node";
import { Links, Meta, Outlet, Scripts, ScrollRestoration, isRouteErrorResponse, useRouteError } from "@remix-run/react";
import { QueryClientProvider } from "@tanstack/react-query";
import { useState } from "react";
import { Toaster } from "~/components/ui/toaster";
import { createQueryClient } from "~/lib/query-client";
import stylesheet from "~/tailwind.css?url";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: stylesheet }];

export const meta: MetaFunction = () => [
  { title: "Reelsmith" },
  { name: "description", content: "Turn a title and a topic into a finished, uploaded video." },
];

export function Layout({ children }: { children: React.ReactNode }) {
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <Links />
      </head>
      <body className="min-h-screen">
        {children}
        <ScrollRestoration />
        <Scripts />
      </body>
    </html>
  );
}

export default function App() {
  const [queryClient] = useState(createQueryClient);
  return (
    <QueryClientProvider client={queryClient}>
      <Outlet />
      <Toaster />
    </QueryClientProvider>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  return (
    <main className="mx-auto flex min-h-screen max-w-xl flex-col items-center justify-center gap-4 p-8 text-center">
      <h1 className="text-3xl font-bold">{notFound ? "Page Not Found" : "Something went wrong"}</h1>
      <p className="text-slate-400">
        {notFound
          ? "The page you are looking for does not exist."
          : isRouteErrorResponse(error)
            ? `${error.status}: ${typeof error.data === "string" ? error.data : error.statusText}`
            : "An unexpected error occurred. Please try again."}
      </p>
      <a href="/" className="text-brand underline">
        Back to Home
      </a>
    </main>
  );
}
