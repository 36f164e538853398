// How fast the voice the creator chose reads (words per second at speed 1): the figure the narration fit plans
// with, asked of the server (offline voices are measured there once). Null while it is not known yet.
import { useQuery } from "@tanstack/react-query";
import { apiGet } from "~/lib/api-client";
import { TYPICAL_CLOUD_WORDS_PER_SECOND } from "~/lib/narration";

type Pace = { wordsPerSecond: number; measured: boolean };

export function useSpeakingPace(language: string, voiceId: string | null) {
  const pace = useQuery({
    queryKey: ["speaking-pace", language, voiceId ?? ""],
    queryFn: () => apiGet<Pace>(`/api/speaking-pace?${new URLSearchParams({ language, voiceId: voiceId ?? "" })}`),
    staleTime: 5 * 60_000,
  });
  // a pace the server could not measure: the typical one, said as such
  if (pace.isError) return { wordsPerSecond: TYPICAL_CLOUD_WORDS_PER_SECOND, measured: false, loading: false };
  return { wordsPerSecond: pace.data?.wordsPerSecond ?? null, measured: pace.data?.measured ?? false, loading: pace.isLoading };
}
