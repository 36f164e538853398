// The places a channel posts to (issue 52, decision 271): YouTube, and each connected TikTok and Instagram account,
// each with the options its posts get. TikTok's are chosen here once for the channel, as its content-sharing
// guidelines ask of an export step: the account's nickname from creator info, who can see the posts (no default, one
// of the account's own levels), comments, duets and stitches off unless turned on (greyed out when the account has
// them off), and the creator's agreement to the Music Usage Confirmation.
import { Link } from "@remix-run/react";
import { useQuery } from "@tanstack/react-query";
import { CONNECTIONS_KEY, fetchConnections, fetchCreatorInfo, type PlatformConnection } from "~/components/platforms/platform-queries";
import { serverMessage } from "~/lib/api-client";
import type { ChannelAccountInput, ChannelInstagramOptions, ChannelTikTokOptions } from "~/lib/channel";
import { PLATFORM_NAMES } from "~/lib/platform-rules";
import { TikTokPrivacySelect, tiktokInteractionSwitches } from "../platforms/tiktok-privacy-select";

/** A chosen account as the channel's PATCH sends it. */
export type AccountDraft = Omit<ChannelAccountInput, "tiktok"> & { tiktok?: Omit<ChannelTikTokOptions, "consent"> & { consent: boolean } };

const selectClass = "h-9 rounded-md border border-slate-700 bg-slate-900 px-2 text-sm text-slate-100";
const TIKTOK_START: AccountDraft["tiktok"] = { mode: "direct", privacyLevel: null, allowComment: false, allowDuet: false, allowStitch: false, consent: false };

/** The problems that keep the accounts from being saved, in words (empty: they may be saved). */
export function accountProblems(accounts: AccountDraft[]): string[] {
  return accounts.flatMap((a) => {
    if (a.platform !== "tiktok" || !a.tiktok) return [];
    const out: string[] = [];
    if (a.tiktok.mode === "direct" && !a.tiktok.privacyLevel) out.push("Choose who can see the channel's TikTok posts.");
    if (!a.tiktok.consent) out.push("Agree to TikTok's Music Usage Confirmation to post there.");
    return out;
  });
}

export function ChannelAccounts({ value, onChange }: { value: AccountDraft[]; onChange: (next: AccountDraft[]) => void }) {
  const connections = useQuery({ queryKey: CONNECTIONS_KEY, queryFn: fetchConnections });
  const youtube = value.some((a) => a.platform === "youtube");
  const chosen = (id: string) => value.find((a) => a.connectionRef === id && a.platform !== "youtube");
  const toggle = (connection: PlatformConnection, on: boolean) =>
    onChange(
      on
        ? [...value, { platform: connection.platform, connectionRef: connection.id, ...(connection.platform === "tiktok" ? { tiktok: { ...TIKTOK_START! } } : { instagram: { shareToFeed: true } }) }]
        : value.filter((a) => a.connectionRef !== connection.id || a.platform === "youtube"),
    );
  const update = (id: string, change: Partial<AccountDraft>) => onChange(value.map((a) => (a.connectionRef === id && a.platform !== "youtube" ? { ...a, ...change } : a)));
  const list = connections.data?.connections ?? [];
  return (
    <fieldset className="grid gap-3">
      <legend className="text-sm font-medium text-slate-200">Where the channel posts</legend>
      <label className="flex items-center gap-2 text-sm text-slate-200">
        <input type="checkbox" checked={youtube} onChange={(e) => onChange(e.target.checked ? [...value, { platform: "youtube" }] : value.filter((a) => a.platform !== "youtube"))} /> Post to my connected YouTube channel
      </label>
      {list.map((connection) => {
        const account = chosen(connection.id);
        const name = `${PLATFORM_NAMES[connection.platform]}: ${connection.accountName ?? "account"}`;
        return (
          <div key={connection.id} className="grid gap-2 rounded-md border border-slate-800 p-3">
            <label className={`flex items-center gap-2 text-sm ${connection.needsReconnect ? "text-slate-500" : "text-slate-200"}`}>
              <input type="checkbox" disabled={connection.needsReconnect && !account} checked={!!account} onChange={(e) => toggle(connection, e.target.checked)} /> Post to {name}
              {connection.needsReconnect ? <span className="text-xs text-amber-300">(reconnect it in Settings)</span> : null}
            </label>
            {account?.platform === "tiktok" && account.tiktok ? (
              <TikTokAccountOptions connection={connection} options={account.tiktok} audited={connections.data?.tiktokAudited ?? false} onChange={(tiktok) => update(connection.id, { tiktok })} />
            ) : null}
            {account?.platform === "instagram" ? (
              <label className="flex items-center gap-2 pl-6 text-sm text-slate-300">
                <input
                  type="checkbox"
                  checked={(account.instagram as ChannelInstagramOptions | undefined)?.shareToFeed ?? true}
                  onChange={(e) => update(connection.id, { instagram: { shareToFeed: e.target.checked } })}
                />{" "}
                Also show each Reel in my feed
              </label>
            ) : null}
          </div>
        );
      })}
      {connections.isSuccess && !list.length ? (
        <p className="text-xs text-slate-400">
          To post the channel&apos;s videos to TikTok or Instagram Reels too, connect those accounts in{" "}
          <Link to="/settings" className="text-violet-300 underline">
            Settings
          </Link>
          .
        </p>
      ) : null}
      <p className="text-xs text-slate-400">Each video goes to every place chosen at its slot, as it was made (the kit&apos;s format); a place that refuses it says why on the calendar, and the others still post.</p>
    </fieldset>
  );
}

function TikTokAccountOptions({ connection, options, audited, onChange }: { connection: PlatformConnection; options: NonNullable<AccountDraft["tiktok"]>; audited: boolean; onChange: (o: NonNullable<AccountDraft["tiktok"]>) => void }) {
  // TikTok's latest creator info, read when the choice opens (its guidelines); read again before each post
  const info = useQuery({ queryKey: ["tiktok-creator-info", connection.id], queryFn: () => fetchCreatorInfo(connection.id), staleTime: 0 });
  const id = `channel-tt-${connection.id}`;
  if (info.isPending) return <p className="pl-6 text-sm text-slate-400">Reading this TikTok account&apos;s settings...</p>;
  if (info.isError) return <p className="pl-6 text-sm text-red-300">{serverMessage(info.error)}</p>;
  const creator = info.data;
  const switches = tiktokInteractionSwitches(creator);
  return (
    <div className="grid gap-2 pl-6 text-sm text-slate-300">
      <p>
        Posting to <strong>{creator.creatorNickname}</strong> on TikTok
      </p>
      {!audited ? (
        <p role="note" className="rounded-md border border-amber-500/40 bg-amber-500/10 px-3 py-2 text-amber-100">
          TikTok has not audited this server&apos;s app yet, so the posts will be private: only you can see them on TikTok.
        </p>
      ) : null}
      <div className="flex flex-wrap items-center gap-3">
        <label htmlFor={`${id}-privacy`}>Who can see the posts</label>
        <TikTokPrivacySelect
          id={`${id}-privacy`}
          className={selectClass}
          value={options.privacyLevel ?? ""}
          options={creator.privacyLevelOptions}
          audited={audited}
          placeholder="Choose who can see them"
          onChange={(privacyLevel) => onChange({ ...options, privacyLevel })}
        />
      </div>
      <div className="flex flex-wrap gap-4">
        {switches.map((s) => (
          <label key={s.key} className={`flex items-center gap-2 ${s.off ? "text-slate-500" : ""}`}>
            <input type="checkbox" checked={options[s.key] && !s.off} disabled={s.off} onChange={(e) => onChange({ ...options, [s.key]: e.target.checked })} /> {s.label}
          </label>
        ))}
      </div>
      <label className="flex items-start gap-2">
        <input type="checkbox" className="mt-1" checked={options.consent} onChange={(e) => onChange({ ...options, consent: e.target.checked })} />
        <span>
          I agree to TikTok&apos;s{" "}
          <a href="https://www.tiktok.com/legal/page/global/music-usage-confirmation/en" target="_blank" rel="noreferrer" className="text-violet-300 underline">
            Music Usage Confirmation
          </a>{" "}
          for this channel&apos;s posts
        </span>
      </label>
    </div>
  );
}
