import { redirect } from "@remix-run/node";
import { DEFAULT_FAVICON } from "~/components/layout/global-branding";
import { getGlobalBranding } from "~/server/branding.server";

// GET /favicon.ico: browsers and feed readers ask for it whatever the page's <link rel="icon"> says. Public, like
// the pages' icon: the owner's favicon when one is set, otherwise Reelsmith's own.
export async function loader() {
  const branding = await getGlobalBranding().catch(() => null);
  return redirect(branding?.customFaviconUrl || DEFAULT_FAVICON, { headers: { "Cache-Control": "public, max-age=300" } });
}
