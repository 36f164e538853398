import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { LandingPage } from "~/components/layout/landing-page";
import type { loader as rootLoader } from "~/root";
import { getUser } from "~/server/auth.server";
import { prisma } from "~/core/db.server";
import { getDashboard } from "~/core/projects.server";
import { pageMeta } from "~/lib/meta";
import { lazy, Suspense } from "react";

// Signed out, "/" shows the landing page only: the dashboard's code loads when a signed-in visitor gets it.
const DashboardView = lazy(() => import("~/components/layout/dashboard-view").then((m) => ({ default: m.DashboardView })));

export const meta: MetaFunction = () => pageMeta("Reelsmith: AI video creation for content creators");

// "/": the landing page when signed out. Signed in, the conditional home: the create-video
// screen once setup is complete (or when the settings cannot be read), otherwise the dashboard.
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await getUser(request);
  if (!user) return { dashboard: null };
  const setupComplete = await prisma.userSettings
    .findUnique({ where: { userId: user.id }, select: { hasCompletedSetup: true } })
    .then((s) => s?.hasCompletedSetup ?? false)
    .catch(() => true);
  if (setupComplete) throw redirect("/create");
  return { dashboard: await getDashboard(user) };
}

export default function Home() {
  const { dashboard } = useLoaderData<typeof loader>();
  const root = useRouteLoaderData<typeof rootLoader>("root");
  if (!dashboard) return <LandingPage logoUrl={root?.branding.customLogoUrl ?? null} />;
  return (
    <Suspense fallback={null}>
      <DashboardView data={dashboard} />
    </Suspense>
  );
}
