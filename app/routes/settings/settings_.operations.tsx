import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { OperationsPage } from "~/components/operations/operations-page";
import { requireUser } from "~/server/auth.server";
import { keyFigures } from "~/core/observability/key-figures.server";
import { isOwner } from "~/core/permissions.server";
import { pageMeta } from "~/lib/meta";

export const meta: MetaFunction = () => pageMeta("Operations · Reelsmith");

// /settings/operations: the owner's key figures (issue 54); anyone else is told there is no such page.
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  if (!isOwner(user)) throw new Response("Not Found", { status: 404 });
  return { figures: { ...(await keyFigures()), readAt: new Date().toISOString() } };
}

export default function Operations() {
  const { figures } = useLoaderData<typeof loader>();
  return <OperationsPage figures={figures} />;
}
