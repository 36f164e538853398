import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { LegacyApiConfig } from "~/components/settings/legacy-api-config";
import { SignedOutNotice } from "~/components/settings/signed-out-notice";
import { getUser } from "~/server/auth.server";
import { isOwner } from "~/core/permissions.server";
import { pageMeta } from "~/lib/meta";

export const meta: MetaFunction = () => pageMeta("API Configuration · Reelsmith");

// /settings/legacy: the older, light-theme API Configuration page.
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await getUser(request);
  return user ? { signedIn: true as const, isOwner: isOwner(user) } : { signedIn: false as const };
}

export default function LegacySettings() {
  const data = useLoaderData<typeof loader>();
  return data.signedIn ? <LegacyApiConfig isOwner={data.isOwner} /> : <SignedOutNotice />;
}
