// The owner's branding in the browser: the favicon follows customFaviconUrl (spec: a global behaviour), and
// the settings page can refresh it by invalidating GLOBAL_BRANDING_KEY after an upload.
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { toast } from "~/hooks/use-toast";
import { apiGet } from "~/lib/api-client";
import type { GlobalBranding } from "~/server/branding.server";

export const GLOBAL_BRANDING_KEY = ["global-branding"];
export const DEFAULT_FAVICON = "/favicon.svg";

export function useGlobalBranding(fromServer: GlobalBranding, signedIn: boolean): GlobalBranding {
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: GLOBAL_BRANDING_KEY,
    queryFn: () => apiGet<GlobalBranding>("/api/global-branding"),
    initialData: fromServer,
    enabled: signedIn,
  });

  // Every navigation brings the server's current branding; keep the cache in step with it.
  useEffect(() => {
    queryClient.setQueryData(GLOBAL_BRANDING_KEY, fromServer);
  }, [queryClient, fromServer]);

  useEffect(() => {
    if (query.isError) toast({ title: "Failed to fetch global branding", description: String(query.error?.message ?? ""), variant: "destructive" });
  }, [query.isError, query.error]);

  const branding = query.data ?? fromServer;
  useEffect(() => {
    const link = document.querySelector<HTMLLinkElement>('link[rel="icon"]');
    const href = branding.customFaviconUrl || DEFAULT_FAVICON;
    if (link && link.getAttribute("href") !== href) link.setAttribute("href", href);
  }, [branding.customFaviconUrl]);
  return branding;
}
