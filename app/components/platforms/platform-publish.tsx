// The publish step (issue 49): ONE chooser for YouTube, TikTok and Instagram Reels, each chosen platform's options
// (YouTube's form, handed in by the page), and each post's state and link, a scheduled one movable until it starts.
// For TikTok and Instagram: choose the accounts, a caption per account written
// from the video's title within each platform's limits (editable), now or at a time, each platform's rules listed
// beside it (a rule the platform would refuse blocks that account only), and what TikTok's content-sharing
// guidelines require: the account's nickname, a privacy choice with no default, the interaction switches, the
// Music Usage Confirmation line, and a plain statement when the app is unaudited and posts stay private.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Link } from "@remix-run/react";
import { CheckCircle2, ExternalLink, Share2, TriangleAlert, XCircle } from "lucide-react";
import { useRef, useState, type MutableRefObject, type ReactNode } from "react";
import { Button } from "~/components/ui/button";
import { toast } from "~/hooks/use-toast";
import { apiRequest, serverMessage } from "~/lib/api-client";
import {
  blockingReasons,
  captionFor,
  INSTAGRAM_RULES,
  PLATFORM_NAMES,
  platformChecks,
  TIKTOK_RULES,
  type Platform,
  type PlatformVideoFacts,
  type TikTokPrivacyLevel,
} from "~/lib/platform-rules";
import { fetchUploadStatus, UPLOAD_STATUS_KEY } from "~/components/upload/upload-queries";
import { TikTokPrivacySelect, tiktokInteractionSwitches } from "./tiktok-privacy-select";
import { cancelPost, reschedulePost, CONNECTIONS_KEY, fetchConnections, fetchCreatorInfo, fetchPosts, POSTS_KEY, type PlatformConnection, type PlatformPost } from "./platform-queries";

type Draft = {
  caption: string;
  scheduleOn: boolean;
  scheduledAt: string;
  privacyLevel: TikTokPrivacyLevel | "";
  allowComment: boolean;
  allowDuet: boolean;
  allowStitch: boolean;
  mode: "direct" | "inbox";
  shareToFeed: boolean;
  coverSeconds: string;
};

const STATUS_TEXT: Record<string, string> = {
  scheduled: "Scheduled",
  posting: "Posting",
  processing: "Processing at the platform",
  published: "Published",
  sent_to_inbox: "In your TikTok inbox: finish the post in the TikTok app",
  failed: "Failed",
  cancelled: "Cancelled",
};
const SETTLED = ["published", "sent_to_inbox", "failed", "cancelled"];

/** Hashtags from the title's longer words: a start the creator edits. */
function hashtagsFrom(title: string): string[] {
  const words = title.match(/[\p{L}\p{N}]{4,}/gu) ?? [];
  return [...new Set(words.map((w) => w.toLowerCase()))].slice(0, 5);
}

function newDraft(platform: Platform, title: string): Draft {
  return {
    caption: captionFor(platform, title, hashtagsFrom(title)),
    scheduleOn: false,
    scheduledAt: "",
    privacyLevel: "",
    allowComment: false,
    allowDuet: false,
    allowStitch: false,
    mode: "direct",
    shareToFeed: true,
    coverSeconds: "",
  };
}

function RuleList({ platform, facts, caption, maxSeconds }: { platform: Platform; facts: PlatformVideoFacts; caption: string; maxSeconds: number | null }) {
  const results = platformChecks(platform, facts, caption, maxSeconds);
  return (
    <ul aria-label={`${PLATFORM_NAMES[platform]} checks`} className="grid gap-1 text-sm">
      {results.map((r) => (
        <li key={r.rule} className="flex items-start gap-2">
          {r.ok ? (
            <CheckCircle2 className="mt-0.5 h-4 w-4 shrink-0 text-emerald-400" aria-label="passes" />
          ) : r.blocking ? (
            <XCircle className="mt-0.5 h-4 w-4 shrink-0 text-red-400" aria-label="blocks" />
          ) : (
            <TriangleAlert className="mt-0.5 h-4 w-4 shrink-0 text-amber-300" aria-label="warning" />
          )}
          <span className={r.ok ? "text-slate-300" : r.blocking ? "text-red-300" : "text-amber-200"}>{r.message}</span>
        </li>
      ))}
    </ul>
  );
}

export type AiMade = { declare: boolean; summary: string };

/** YouTube in the chooser: its label, and its form (the page's), told whether to hide its own button. */
export type YoutubeChoice = { label: string; ready: boolean; render: (opts: { hideSubmit: boolean; submitRef: MutableRefObject<(() => void) | null> }) => ReactNode };

function TikTokOptions({ account, draft, update, audited, facts, aiMade }: { account: PlatformConnection; draft: Draft; update: (d: Partial<Draft>) => void; audited: boolean; facts: PlatformVideoFacts; aiMade: AiMade }) {
  const info = useQuery({ queryKey: ["tiktok-creator-info", account.id], queryFn: () => fetchCreatorInfo(account.id), staleTime: 0 });
  const id = `tt-${account.id}`;
  if (info.isPending) return <p className="text-sm text-slate-400">Reading this TikTok account&apos;s settings...</p>;
  if (info.isError) return <p className="text-sm text-red-300">{serverMessage(info.error)}</p>;
  const creator = info.data;
  const switches = tiktokInteractionSwitches(creator);
  return (
    <div className="grid gap-3">
      <p className="text-sm">
        Posting to <strong>{creator.creatorNickname}</strong> on TikTok
      </p>
      {!audited ? (
        <p role="note" className="rounded-md border border-amber-500/40 bg-amber-500/10 px-3 py-2 text-sm text-amber-100">
          TikTok has not audited this server&apos;s app yet, so the post will be private: only you can see it on TikTok, and your TikTok account must be private when
          you post. You can make it public later in the TikTok app.
        </p>
      ) : null}
      <fieldset className="grid gap-1 text-sm">
        <legend className="font-medium">Post to</legend>
        <label className="flex items-center gap-2">
          <input type="radio" name={`${id}-mode`} checked={draft.mode === "direct"} onChange={() => update({ mode: "direct" })} /> My TikTok profile
        </label>
        <label className="flex items-center gap-2">
          <input type="radio" name={`${id}-mode`} checked={draft.mode === "inbox"} onChange={() => update({ mode: "inbox" })} /> My TikTok inbox, as a draft I finish in the TikTok app
        </label>
      </fieldset>
      {draft.mode === "direct" ? (
        <>
          <label className="grid gap-1 text-sm" htmlFor={`${id}-privacy`}>
            <span className="font-medium">Who can see this post</span>
            <TikTokPrivacySelect
              id={`${id}-privacy`}
              className="h-10 rounded-md border border-slate-700 bg-slate-950 px-3"
              value={draft.privacyLevel}
              options={creator.privacyLevelOptions}
              audited={audited}
              placeholder="Choose who can see it"
              onChange={(privacyLevel) => update({ privacyLevel })}
            />
          </label>
          <fieldset className="grid gap-1 text-sm">
            <legend className="font-medium">Let viewers</legend>
            {switches.map((s) => (
              <label key={s.key} className={`flex items-center gap-2 ${s.off ? "text-slate-500" : ""}`}>
                <input type="checkbox" checked={draft[s.key] && !s.off} disabled={s.off} onChange={(e) => update({ [s.key]: e.target.checked })} /> {s.label}
                {s.off ? <span className="text-xs">(turned off in your TikTok settings)</span> : null}
              </label>
            ))}
          </fieldset>
        </>
      ) : (
        <p className="text-sm text-slate-400">TikTok sends you an inbox notification: open it in the TikTok app to edit and post the video.</p>
      )}
      <p className="text-sm text-slate-300" data-testid="tiktok-ai-label">
        TikTok&apos;s &quot;AI-generated&quot; label: <strong>{aiMade.declare ? "on" : "off"}</strong>. {aiMade.summary}
      </p>
      <RuleList platform="tiktok" facts={facts} caption={draft.caption} maxSeconds={creator.maxVideoPostDurationSec} />
    </div>
  );
}

type YoutubeRow = { status: string; url: string | null; publishAt: string | null; percent: number; error: string | null } | null;
const YOUTUBE_STATUS: Record<string, string> = { uploading: "Uploading", completed: "Published", error: "Failed" };

function Reschedule({ post, onMove }: { post: PlatformPost; onMove: (id: string, at: string | null) => void }) {
  const [open, setOpen] = useState(false);
  const [at, setAt] = useState("");
  if (!open)
    return (
      <>
        <Button type="button" size="sm" variant="ghost" onClick={() => setOpen(true)}>
          Change time
        </Button>
        <Button type="button" size="sm" variant="ghost" onClick={() => onMove(post.id, null)}>
          Post now
        </Button>
      </>
    );
  return (
    <span className="flex flex-wrap items-center gap-2">
      <input
        type="datetime-local"
        aria-label={`New time for the ${PLATFORM_NAMES[post.platform]} post`}
        className="h-9 rounded-md border border-slate-700 bg-slate-950 px-2"
        value={at}
        onChange={(e) => setAt(e.target.value)}
      />
      <Button
        type="button"
        size="sm"
        disabled={!at}
        onClick={() => {
          onMove(post.id, new Date(at).toISOString());
          setOpen(false);
        }}
      >
        Move
      </Button>
    </span>
  );
}

function PostList({ posts, youtube, onCancel, onMove }: { posts: PlatformPost[]; youtube: YoutubeRow; onCancel: (id: string) => void; onMove: (id: string, at: string | null) => void }) {
  if (!posts.length && !youtube) return null;
  return (
    <div className="grid gap-2">
      <h3 className="font-semibold">Posts of this video</h3>
      <ul className="grid gap-2">
        {youtube ? (
          <li className="flex flex-wrap items-center justify-between gap-2 rounded-md bg-slate-950 px-3 py-2 text-sm">
            <span>
              <strong>YouTube</strong> ·{" "}
              {youtube.status === "completed" && youtube.publishAt && new Date(youtube.publishAt).getTime() > Date.now()
                ? `Scheduled: uploaded, private until ${new Date(youtube.publishAt).toLocaleString()}`
                : (YOUTUBE_STATUS[youtube.status] ?? youtube.status)}
              {youtube.status === "uploading" ? ` (${youtube.percent}%)` : ""}
              {youtube.status === "error" && youtube.error ? <span className="block text-red-300">{youtube.error}</span> : null}
            </span>
            {youtube.url ? (
              <a href={youtube.url} target="_blank" rel="noreferrer" className="inline-flex items-center gap-1 text-violet-300 underline">
                View post <ExternalLink className="h-3 w-3" aria-hidden />
              </a>
            ) : null}
          </li>
        ) : null}
        {posts.map((post) => (
          <li key={post.id} className="flex flex-wrap items-center justify-between gap-2 rounded-md bg-slate-950 px-3 py-2 text-sm">
            <span>
              <strong>{PLATFORM_NAMES[post.platform]}</strong> · {post.accountName ?? "account"} · {STATUS_TEXT[post.status] ?? post.status}
              {post.status === "scheduled" && post.scheduledAt ? ` for ${new Date(post.scheduledAt).toLocaleString()}` : ""}
              {post.status === "posting" && post.totalBytes ? ` (${Math.floor((post.bytesUploaded / post.totalBytes) * 100)}%)` : ""}
              {post.error ? <span className="block text-red-300">{post.error}</span> : null}
            </span>
            <span className="flex items-center gap-2">
              {post.permalink ? (
                <a href={post.permalink} target="_blank" rel="noreferrer" className="inline-flex items-center gap-1 text-violet-300 underline">
                  View post <ExternalLink className="h-3 w-3" aria-hidden />
                </a>
              ) : post.platform === "tiktok" && post.status === "published" ? (
                // TikTok names a post's public id only once it is public and moderated (never for "Only me")
                <span className="text-slate-400">No public link yet: private or in review, see it in the TikTok app</span>
              ) : null}
              {post.status === "scheduled" ? (
                <>
                  <Reschedule post={post} onMove={onMove} />
                  <Button type="button" size="sm" variant="ghost" onClick={() => onCancel(post.id)}>
                    Cancel
                  </Button>
                </>
              ) : null}
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}

const NO_FACTS: PlatformVideoFacts = { durationSeconds: null, width: null, height: null, fps: null, sizeBytes: null };

export function PlatformPublish({
  projectTitle,
  videoUrl,
  facts: videoFacts,
  aiMade,
  youtube,
}: {
  projectTitle: string;
  videoUrl: string | null;
  /** the video's duration, size, frame rate and sides, read from the file on the server */
  facts: PlatformVideoFacts | null;
  aiMade: AiMade;
  youtube: YoutubeChoice;
}) {
  const queryClient = useQueryClient();
  const accounts = useQuery({ queryKey: CONNECTIONS_KEY, queryFn: fetchConnections });
  const posts = useQuery({
    queryKey: POSTS_KEY,
    queryFn: fetchPosts,
    refetchInterval: (q) => ((q.state.data ?? []).some((p) => !SETTLED.includes(p.status)) ? 2000 : false),
  });
  const [drafts, setDrafts] = useState<Record<string, Draft>>({});
  const [youtubeChosen, setYoutubeChosen] = useState(true);
  const youtubeSubmit = useRef<(() => void) | null>(null);
  const youtubeStatus = useQuery({ queryKey: UPLOAD_STATUS_KEY, queryFn: fetchUploadStatus });
  const yt = youtubeStatus.data;
  const youtubeRow: YoutubeRow = yt && yt.status !== "idle" ? { status: yt.status, url: yt.url, publishAt: yt.publishAt, percent: yt.percent, error: yt.error } : null;
  const facts = videoFacts ?? NO_FACTS;
  const usable = (accounts.data?.connections ?? []).filter((c) => !c.needsReconnect);
  const chosen = usable.filter((c) => drafts[c.id]);
  const audited = accounts.data?.tiktokAudited ?? false;

  const toggle = (account: PlatformConnection, on: boolean) =>
    setDrafts((all) => {
      const next = { ...all };
      if (on) next[account.id] = newDraft(account.platform, projectTitle);
      else delete next[account.id];
      return next;
    });
  const update = (id: string, change: Partial<Draft>) => setDrafts((all) => ({ ...all, [id]: { ...all[id]!, ...change } }));

  // YouTube counts when its form can upload (the channel connected)
  const places = chosen.length + (youtubeChosen && youtube.ready ? 1 : 0);
  const problems = chosen.flatMap((account) => {
    const draft = drafts[account.id]!;
    const reasons = blockingReasons(platformChecks(account.platform, facts, draft.caption));
    if (account.platform === "tiktok" && draft.mode === "direct" && !draft.privacyLevel) reasons.push("Choose who can see the TikTok post.");
    if (draft.scheduleOn && !draft.scheduledAt) reasons.push("Choose the time to post, or post now.");
    return reasons.map((r) => `${account.accountName ?? PLATFORM_NAMES[account.platform]}: ${r}`);
  });

  const publish = useMutation({
    mutationFn: () =>
      apiRequest<{ posts: PlatformPost[]; refused: { platform: Platform; reasons: string[] }[] }>("POST", "/api/platforms/posts", {
        videoPath: videoUrl ?? undefined,
        posts: chosen.map((account) => {
          const d = drafts[account.id]!;
          return {
            platform: account.platform,
            connectionId: account.id,
            caption: d.caption,
            scheduledAt: d.scheduleOn && d.scheduledAt ? new Date(d.scheduledAt).toISOString() : null,
            ...(account.platform === "tiktok"
              ? { tiktok: { mode: d.mode, privacyLevel: d.privacyLevel || null, allowComment: d.allowComment, allowDuet: d.allowDuet, allowStitch: d.allowStitch, consent: true } }
              : { instagram: { shareToFeed: d.shareToFeed, coverAtMs: d.coverSeconds ? Math.round(Number(d.coverSeconds) * 1000) : null } }),
          };
        }),
      }),
    onSuccess: (result) => {
      setDrafts({});
      void queryClient.invalidateQueries({ queryKey: POSTS_KEY });
      toast({ title: "Posting started", description: `${result.posts.length} post${result.posts.length === 1 ? "" : "s"} under way.${result.refused.length ? ` Refused: ${result.refused.map((r) => `${PLATFORM_NAMES[r.platform]} (${r.reasons.join(" ")})`).join("; ")}` : ""}` });
    },
    onError: (e) => toast({ title: "Not posted", description: serverMessage(e), variant: "destructive" }),
  });
  const move = useMutation({
    mutationFn: ({ id, at }: { id: string; at: string | null }) => reschedulePost(id, at),
    onSuccess: (_, { at }) => {
      toast({ title: at ? "Post moved" : "Posting now", description: at ? `The post waits until ${new Date(at).toLocaleString()}.` : "The post starts now instead of at its time." });
      void queryClient.invalidateQueries({ queryKey: POSTS_KEY });
    },
    onError: (e) => toast({ title: "Not moved", description: serverMessage(e), variant: "destructive" }),
  });
  const cancel = useMutation({
    mutationFn: cancelPost,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: POSTS_KEY }),
    onError: (e) => toast({ title: "Error", description: serverMessage(e), variant: "destructive" }),
  });

  return (
    <section aria-label="Publish" className="space-y-4 rounded-xl border border-slate-800 bg-slate-900 p-4 sm:p-6">
      <h2 className="flex items-center gap-2 text-xl font-semibold">
        <Share2 className="h-5 w-5 text-pink-400" aria-hidden /> Publish
      </h2>
      <fieldset className="flex flex-wrap gap-2 sm:gap-4">
        <legend className="mb-2 text-sm font-medium">Post this video to</legend>
        <label className="flex items-center gap-2 rounded-md border border-slate-700 px-3 py-2 text-sm">
          <input type="checkbox" checked={youtubeChosen} onChange={(e) => setYoutubeChosen(e.target.checked)} />
          {youtube.label}
        </label>
        {usable.map((account) => (
          <label key={account.id} className="flex items-center gap-2 rounded-md border border-slate-700 px-3 py-2 text-sm">
            <input type="checkbox" checked={Boolean(drafts[account.id])} onChange={(e) => toggle(account, e.target.checked)} />
            {PLATFORM_NAMES[account.platform]} · {account.accountName ?? "account"}
          </label>
        ))}
      </fieldset>
      {accounts.isPending ? (
        <p className="text-sm text-slate-400">Reading your TikTok and Instagram accounts...</p>
      ) : !usable.length ? (
        <p className="text-sm text-slate-300">
          No TikTok or Instagram account is connected.{" "}
          <Link to="/settings" className="text-violet-300 underline">
            Connect one in Settings
          </Link>
          .
        </p>
      ) : null}
      {youtubeChosen ? youtube.render({ hideSubmit: chosen.length > 0, submitRef: youtubeSubmit }) : null}
      {chosen.length ? (
        <>
          {chosen.map((account) => {
            const draft = drafts[account.id]!;
            const limit = account.platform === "tiktok" ? TIKTOK_RULES.captionChars : INSTAGRAM_RULES.captionChars;
            const tags = draft.caption.match(/#[\p{L}\p{N}_]+/gu)?.length ?? 0;
            return (
              <div key={account.id} className="grid gap-4 rounded-lg border border-slate-700 bg-slate-950/60 p-4 md:grid-cols-2">
                <div className="grid content-start gap-3">
                  <h3 className="font-semibold">
                    {PLATFORM_NAMES[account.platform]} · {account.accountName ?? "account"}
                  </h3>
                  <label className="grid gap-1 text-sm" htmlFor={`caption-${account.id}`}>
                    <span className="font-medium">Caption</span>
                    <textarea
                      id={`caption-${account.id}`}
                      rows={4}
                      className="rounded-md border border-slate-700 bg-slate-950 px-3 py-2"
                      value={draft.caption}
                      onChange={(e) => update(account.id, { caption: e.target.value })}
                    />
                    <span className="text-xs text-slate-400">
                      {draft.caption.length.toLocaleString("en-US")} / {limit.toLocaleString("en-US")} characters
                      {account.platform === "instagram" ? ` · ${tags} / ${INSTAGRAM_RULES.hashtags} hashtags` : ""}
                    </span>
                  </label>
                  {account.platform === "instagram" ? (
                    <>
                      <label className="flex items-center gap-2 text-sm">
                        <input type="checkbox" checked={draft.shareToFeed} onChange={(e) => update(account.id, { shareToFeed: e.target.checked })} /> Also show the Reel in my feed
                      </label>
                      <label className="grid gap-1 text-sm" htmlFor={`cover-${account.id}`}>
                        <span className="font-medium">Cover: the frame at (seconds)</span>
                        <input
                          id={`cover-${account.id}`}
                          type="number"
                          min={0}
                          step={0.1}
                          className="h-10 w-32 rounded-md border border-slate-700 bg-slate-950 px-3"
                          value={draft.coverSeconds}
                          placeholder="0"
                          onChange={(e) => update(account.id, { coverSeconds: e.target.value })}
                        />
                      </label>
                    </>
                  ) : null}
                  <fieldset className="grid gap-1 text-sm">
                    <legend className="font-medium">When</legend>
                    <label className="flex items-center gap-2">
                      <input type="radio" name={`when-${account.id}`} checked={!draft.scheduleOn} onChange={() => update(account.id, { scheduleOn: false })} /> Now
                    </label>
                    <label className="flex items-center gap-2">
                      <input type="radio" name={`when-${account.id}`} checked={draft.scheduleOn} onChange={() => update(account.id, { scheduleOn: true })} /> At
                      <input
                        type="datetime-local"
                        aria-label={`Time to post to ${PLATFORM_NAMES[account.platform]}`}
                        className="h-9 rounded-md border border-slate-700 bg-slate-950 px-2"
                        value={draft.scheduledAt}
                        onChange={(e) => update(account.id, { scheduleOn: true, scheduledAt: e.target.value })}
                      />
                    </label>
                  </fieldset>
                </div>
                <div className="grid content-start gap-3">
                  {account.platform === "tiktok" ? (
                    <TikTokOptions account={account} draft={draft} update={(d) => update(account.id, d)} audited={audited} facts={facts} aiMade={aiMade} />
                  ) : (
                    <RuleList platform="instagram" facts={facts} caption={draft.caption} maxSeconds={null} />
                  )}
                </div>
              </div>
            );
          })}
          {chosen.some((a) => a.platform === "tiktok") ? (
            <p className="text-sm text-slate-300">
              By posting, you agree to TikTok&apos;s{" "}
              <a href="https://www.tiktok.com/legal/page/global/music-usage-confirmation/en" target="_blank" rel="noreferrer" className="text-violet-300 underline">
                Music Usage Confirmation
              </a>
              .
            </p>
          ) : null}
          {problems.length ? (
            <ul className="grid gap-1 text-sm text-red-300">
              {problems.map((p) => (
                <li key={p}>{p}</li>
              ))}
            </ul>
          ) : null}
          <Button
            type="button"
            size="lg"
            disabled={problems.length > 0 || publish.isPending || !videoUrl}
            onClick={() => {
              // YouTube's own checks and upload run from its form; TikTok's and Instagram's start here
              if (youtubeChosen) youtubeSubmit.current?.();
              publish.mutate();
            }}
          >
            {publish.isPending ? "Starting..." : `Post to ${places} place${places === 1 ? "" : "s"}`}
          </Button>
        </>
      ) : null}
      <PostList posts={posts.data ?? []} youtube={youtubeRow} onCancel={(id) => cancel.mutate(id)} onMove={(id, at) => move.mutate({ id, at })} />
    </section>
  );
}
