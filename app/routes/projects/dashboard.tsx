import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { DashboardView } from "~/components/layout/dashboard-view";
import { requireUser } from "~/server/auth.server";
import { getDashboard } from "~/core/projects.server";
import { pageMeta } from "~/lib/meta";

export const meta: MetaFunction = () => pageMeta("Dashboard · Reelsmith");

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  return getDashboard(user);
}

export default function Dashboard() {
  return <DashboardView data={useLoaderData<typeof loader>()} />;
}
