// The 'Connect YouTube' prompt: opens Google's consent screen in a popup, then checks the connection every 5 s,
// up to 24 times or until the popup closes (spec section 4). The popup also tells this page when it is done.
import { useQueryClient } from "@tanstack/react-query";
import { Link } from "@remix-run/react";
import { MonitorPlay } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { Button } from "~/components/ui/button";
import { toast } from "~/hooks/use-toast";
import { serverMessage } from "~/lib/api-client";
import { PLATFORM_AUTH_MAX_POLLS, POLLING_MS } from "~/lib/constants";
import { CONNECTION_TEXTS } from "~/lib/youtube";
import { AUTH_STATUS_KEY, CATEGORIES_KEY, fetchAuthStatus, fetchAuthUrl, type AuthStatus } from "./upload-queries";

export function useYoutubeConnect() {
  const queryClient = useQueryClient();
  const [connecting, setConnecting] = useState(false);
  const stopRef = useRef<() => void>(() => {});
  useEffect(() => () => stopRef.current(), []);

  const check = async (): Promise<AuthStatus | null> => {
    const status = await fetchAuthStatus().catch(() => null);
    if (status) queryClient.setQueryData(AUTH_STATUS_KEY, status);
    return status;
  };

  const connect = async () => {
    let authUrl: string;
    try {
      ({ authUrl } = await fetchAuthUrl());
    } catch (error) {
      const detail = serverMessage(error);
      toast({ title: CONNECTION_TEXTS.authError.title, description: detail.includes("Settings") ? detail : CONNECTION_TEXTS.authError.description, variant: "destructive" });
      return;
    }
    const popup = window.open(authUrl, "reelsmith-youtube-auth", "width=520,height=700");
    if (!popup) {
      toast({ title: CONNECTION_TEXTS.connectionError.title, description: CONNECTION_TEXTS.connectionError.description, variant: "destructive" });
      return;
    }
    setConnecting(true);
    let polls = 0;
    let finished = false;
    const finish = (status: AuthStatus | null, message?: string) => {
      if (finished) return;
      finished = true;
      stopRef.current();
      setConnecting(false);
      if (status?.isAuthenticated) {
        toast({ title: "YouTube connected", description: status.channelTitle ? `Uploading to ${status.channelTitle}.` : "You can upload your video now." });
        queryClient.invalidateQueries({ queryKey: CATEGORIES_KEY });
      } else {
        toast({ title: CONNECTION_TEXTS.connectionError.title, description: message ?? CONNECTION_TEXTS.connectionError.description, variant: "destructive" });
      }
    };
    const timer = window.setInterval(async () => {
      polls++;
      const status = await check();
      if (status?.isAuthenticated || popup.closed || polls >= PLATFORM_AUTH_MAX_POLLS) finish(status);
    }, POLLING_MS.platformAuth);
    const onMessage = async (event: MessageEvent) => {
      if (event.origin !== window.location.origin || (event.data as { type?: string })?.type !== "reelsmith:youtube-auth") return;
      const data = event.data as { ok: boolean; message: string };
      const status = await check();
      finish(status, data.ok ? undefined : data.message);
    };
    window.addEventListener("message", onMessage);
    stopRef.current = () => {
      window.clearInterval(timer);
      window.removeEventListener("message", onMessage);
    };
  };
  return { connect, connecting };
}

export function ConnectYoutubePrompt({ status, connect, connecting }: { status: AuthStatus | undefined; connect: () => void; connecting: boolean }) {
  return (
    <section aria-label="Connect YouTube" className="space-y-4 rounded-xl border border-slate-800 bg-slate-900 p-6">
      <h2 className="flex items-center gap-2 text-xl font-semibold">
        <MonitorPlay className="h-6 w-6 text-red-500" aria-hidden /> Connect YouTube
      </h2>
      {status?.needsReconnect ? (
        <p role="alert" className="rounded-lg border border-amber-700 bg-amber-950 p-3 text-sm text-amber-200">
          Your YouTube connection is no longer valid (access was revoked or expired). Connect again to upload.
        </p>
      ) : (
        <p className="text-slate-400">Connect your YouTube channel to upload this video straight from Reelsmith.</p>
      )}
      {status && !status.hasOAuthClient ? (
        <p className="text-sm text-slate-400">
          First save your Google OAuth client ID and secret under YouTube Upload Integration in{" "}
          <Link to="/settings" className="text-violet-300 underline">
            Settings
          </Link>
          .
        </p>
      ) : null}
      <Button onClick={connect} disabled={connecting}>
        {connecting ? "Waiting for Google..." : "Connect YouTube"}
      </Button>
    </section>
  );
}
