// The browser's side of TikTok and Instagram (issue 49): the accounts, the connect popup, the posts.
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { toast } from "~/hooks/use-toast";
import { apiGet, apiRequest, serverMessage } from "~/lib/api-client";
import { PLATFORM_NAMES, type Platform, type TikTokPrivacyLevel } from "~/lib/platform-rules";

export type PlatformConnection = { id: string; platform: Platform; accountName: string | null; needsReconnect: boolean; connectedAt: string };
export type ConnectionsResponse = { connections: PlatformConnection[]; configured: Record<Platform, boolean>; tiktokAudited: boolean };
export type CreatorInfo = {
  creatorNickname: string;
  creatorUsername: string;
  privacyLevelOptions: TikTokPrivacyLevel[];
  commentDisabled: boolean;
  duetDisabled: boolean;
  stitchDisabled: boolean;
  maxVideoPostDurationSec: number;
};
export type PlatformPost = {
  id: string;
  platform: Platform;
  accountName: string | null;
  status: string;
  scheduledAt: string | null;
  caption: string;
  bytesUploaded: number;
  totalBytes: number;
  permalink: string | null;
  error: string | null;
};

export const CONNECTIONS_KEY = ["platform-connections"] as const;
export const POSTS_KEY = ["platform-posts"] as const;

export const fetchConnections = async (): Promise<ConnectionsResponse> =>
  (await apiGet<ConnectionsResponse>("/api/platforms/connections")) ?? { connections: [], configured: { tiktok: false, instagram: false }, tiktokAudited: false };
export const fetchCreatorInfo = (connectionId: string) => apiRequest<CreatorInfo>("GET", `/api/platforms/connections/${encodeURIComponent(connectionId)}/creator-info`);
export const fetchPosts = async (): Promise<PlatformPost[]> => (await apiGet<{ posts: PlatformPost[] }>("/api/platforms/posts"))?.posts ?? [];
export const disconnectAccount = (connectionId: string) => apiRequest("DELETE", `/api/platforms/connections/${encodeURIComponent(connectionId)}`);
export const cancelPost = (postId: string) => apiRequest("DELETE", `/api/platforms/posts/${encodeURIComponent(postId)}`);

/** Opens the platform's consent screen in a popup; the popup's page tells this one when it is done. */
export function usePlatformConnect() {
  const queryClient = useQueryClient();
  const [connecting, setConnecting] = useState<Platform | null>(null);
  const cleanup = useRef<() => void>(() => {});
  useEffect(() => () => cleanup.current(), []);

  const connect = async (platform: Platform) => {
    const name = PLATFORM_NAMES[platform];
    let authUrl: string;
    try {
      ({ authUrl } = await apiRequest<{ authUrl: string }>("GET", `/api/platforms/${platform}/oauth/authorize`));
    } catch (error) {
      toast({ title: `Could not connect ${name}`, description: serverMessage(error), variant: "destructive" });
      return;
    }
    const popup = window.open(authUrl, `reelsmith-${platform}-auth`, "width=520,height=720");
    if (!popup) {
      toast({ title: `Could not connect ${name}`, description: "Allow pop-ups for this site, then try again.", variant: "destructive" });
      return;
    }
    setConnecting(platform);
    const done = (ok: boolean, message?: string) => {
      cleanup.current();
      setConnecting(null);
      void queryClient.invalidateQueries({ queryKey: CONNECTIONS_KEY });
      if (ok) toast({ title: `${name} connected`, description: message });
      else if (message) toast({ title: `${name} was not connected`, description: message, variant: "destructive" });
    };
    const onMessage = (event: MessageEvent) => {
      if (event.origin !== window.location.origin || event.data?.type !== "reelsmith:platform-auth") return;
      done(Boolean(event.data.ok), String(event.data.message ?? ""));
    };
    const timer = window.setInterval(() => {
      if (popup.closed) done(false);
    }, 1000);
    window.addEventListener("message", onMessage);
    cleanup.current = () => {
      window.clearInterval(timer);
      window.removeEventListener("message", onMessage);
    };
  };
  return { connect, connecting };
}
/** A scheduled post moved to another time (null: posted now). */
export const reschedulePost = (postId: string, scheduledAt: string | null) => apiRequest("PATCH", `/api/platforms/posts/${encodeURIComponent(postId)}`, { scheduledAt });
