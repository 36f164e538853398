// Settings: the creator's TikTok and Instagram accounts (several per platform), connected with the platform's own
// consent screen; "Reconnect TikTok" when the platform refused the tokens.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Share2 } from "lucide-react";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { toast } from "~/hooks/use-toast";
import { serverMessage } from "~/lib/api-client";
import { PLATFORM_NAMES, PLATFORMS, type Platform } from "~/lib/platform-rules";
import { CONNECTIONS_KEY, disconnectAccount, fetchConnections, usePlatformConnect } from "./platform-queries";

const SHORT_NAME: Record<Platform, string> = { tiktok: "TikTok", instagram: "Instagram" };
const CALLBACK = (platform: Platform) => `/api/platforms/${platform}/oauth/callback`;

export function PlatformAccountsCard({ origin }: { origin: string }) {
  const queryClient = useQueryClient();
  const accounts = useQuery({ queryKey: CONNECTIONS_KEY, queryFn: fetchConnections });
  const { connect, connecting } = usePlatformConnect();
  const disconnect = useMutation({
    mutationFn: disconnectAccount,
    onSuccess: () => {
      toast({ title: "Account disconnected", description: "Reelsmith no longer holds tokens for it, and its scheduled posts are dropped." });
      void queryClient.invalidateQueries({ queryKey: CONNECTIONS_KEY });
    },
    onError: (e) => toast({ title: "Error", description: serverMessage(e), variant: "destructive" }),
  });

  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <Share2 className="h-5 w-5 text-pink-400" aria-hidden /> TikTok and Instagram Reels
        </CardTitle>
        <CardDescription>Connect the accounts Reelsmith may post your videos to. You choose where each video goes on the Upload page.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-6">
        {PLATFORMS.map((platform) => {
          const mine = accounts.data?.connections.filter((c) => c.platform === platform) ?? [];
          const configured = accounts.data?.configured[platform] ?? false;
          return (
            <section key={platform} aria-label={PLATFORM_NAMES[platform]} className="grid gap-3 rounded-lg border border-slate-800 bg-slate-950 p-4">
              <div className="flex flex-wrap items-center justify-between gap-2">
                <h3 className="font-semibold">{PLATFORM_NAMES[platform]}</h3>
                <Button type="button" variant="outline" disabled={!configured || connecting !== null} onClick={() => void connect(platform)}>
                  {connecting === platform ? "Connecting..." : mine.length ? "Add another account" : `Connect ${SHORT_NAME[platform]}`}
                </Button>
              </div>
              {mine.length ? (
                <ul className="grid gap-2">
                  {mine.map((account) => (
                    <li key={account.id} className="flex flex-wrap items-center justify-between gap-2 rounded-md bg-slate-900 px-3 py-2 text-sm">
                      <span>
                        {account.accountName ?? "Unnamed account"}
                        {account.needsReconnect ? <span className="ml-2 text-amber-300">Its connection is no longer valid.</span> : null}
                      </span>
                      <span className="flex gap-2">
                        {account.needsReconnect ? (
                          <Button type="button" size="sm" onClick={() => void connect(platform)}>
                            Reconnect {SHORT_NAME[platform]}
                          </Button>
                        ) : null}
                        <Button type="button" size="sm" variant="ghost" disabled={disconnect.isPending} onClick={() => disconnect.mutate(account.id)}>
                          Disconnect
                        </Button>
                      </span>
                    </li>
                  ))}
                </ul>
              ) : (
                <p className="text-sm text-slate-400">No {SHORT_NAME[platform]} account connected.</p>
              )}
              {!configured && accounts.data ? (
                <p className="text-sm text-slate-400">
                  The owner of this server sets up {SHORT_NAME[platform]} first ({platform === "tiktok" ? "TIKTOK_CLIENT_KEY and TIKTOK_CLIENT_SECRET" : "INSTAGRAM_APP_ID and INSTAGRAM_APP_SECRET"}), with this redirect URI:
                  <code className="mt-1 block break-all rounded bg-slate-900 px-2 py-1 text-emerald-300">{`${origin}${CALLBACK(platform)}`}</code>
                </p>
              ) : null}
            </section>
          );
        })}
      </CardContent>
    </Card>
  );
}
