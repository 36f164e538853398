// TanStack Query with the spec's data-reading defaults: no interval refetch, no refetch on
// focus, data never stale, reads not retried; mutations retried twice unless the failure is a 401.
import { QueryClient } from "@tanstack/react-query";
import { QUERY_DEFAULTS } from "./constants";

export function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: {
        refetchInterval: false,
        refetchOnWindowFocus: false,
        staleTime: Infinity,
        gcTime: QUERY_DEFAULTS.gcTimeMs,
        retry: false,
      },
      mutations: {
        retry: (failureCount, error) => !String((error as Error)?.message).includes("401") && failureCount < 2,
        retryDelay: (attempt) => Math.min(1000 * 2 ** attempt, QUERY_DEFAULTS.retryDelayCapMs),
      },
    },
  });
}
