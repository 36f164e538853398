import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData, useParams } from "@remix-run/react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { POST_STATE_CLASS, problemText, STATE_CLASS, type Calendar, type ChannelView, type IdeaView } from "~/components/channels/channel-api";
import { accountProblems, ChannelAccounts, type AccountDraft } from "~/components/channels/channel-accounts";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { toast } from "~/hooks/use-toast";
import { apiGet, apiRequest } from "~/lib/api-client";
import { CAPTION_FONT_LABELS, CAPTION_FONTS, CAPTION_POSITIONS, CAPTION_PRESETS } from "~/lib/caption-style";
import { useConfig } from "~/components/settings/queries";
import { WEEKDAYS, type ChannelKit, type ScheduleSlot } from "~/lib/channel";
import { PRIVACY_STATUSES } from "~/lib/constants";
import { LANGUAGES } from "~/lib/languages";
import { pageMeta } from "~/lib/meta";
import { RESOLUTIONS } from "~/lib/video-format";
import { prisma } from "~/core/db.server";
import { requireUser } from "~/server/auth.server";
import { channelCalendar } from "~/server/channels.server";

// /channels/:id (issue 52): one channel: its calendar of weeks (each slot's video and state; approve, move), its
// queue of ideas (typed, pasted or a CSV file), its brand kit, schedule and the platform accounts it posts to, and
// where each idea was posted (a state, link or reason per platform: decision 271).
export const meta: MetaFunction = () => pageMeta("Channel · Reelsmith");

/** The weeks the page shows (this one and the next two). */
const WEEKS = 3;

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  // another creator's channel, or none: the site's "Page Not Found", as for a project (nothing says it exists)
  if (!(await prisma.channel.count({ where: { id: params.id ?? "", userId: user.id } }))) throw new Response("Not Found", { status: 404 });
  // drawn on the server (issue 55): the calendar is the page's largest paint, no longer after a second request
  return { calendar: await channelCalendar(user.id, params.id!, { weeks: WEEKS }) };
}

const selectClass = "h-10 rounded-md border border-slate-700 bg-slate-900 px-3 text-sm text-slate-100";

export default function ChannelPage() {
  const { id = "" } = useParams();
  const queryClient = useQueryClient();
  const base = `/api/v1/channels/${encodeURIComponent(id)}`;
  const loaded = useLoaderData<typeof loader>();
  const calendar = useQuery({
    queryKey: ["channel", id],
    queryFn: () => apiGet<Calendar>(`${base}/calendar?weeks=${WEEKS}`),
    initialData: loaded.calendar as Calendar,
    staleTime: 10_000,
    refetchInterval: (q) => (q.state.data?.weeks.some((w) => w.slots.some((s) => s.idea && ["making", "publishing"].includes(s.idea.status))) ? 4000 : 15000),
  });
  const refresh = () => void queryClient.invalidateQueries({ queryKey: ["channel", id] });
  const changeIdea = useMutation({
    mutationFn: (v: { ideaId: string; action: "approve" | "move" | "retry"; slotAt?: string }) => apiRequest<IdeaView>("PATCH", `${base}/ideas/${encodeURIComponent(v.ideaId)}`, { action: v.action, slotAt: v.slotAt }),
    onSuccess: (idea, v) => {
      toast({ title: v.action === "approve" ? "Video Approved" : v.action === "move" ? "Video Moved" : "Trying Again", description: `${idea.title}: ${idea.slotLabel ?? "no slot"}` });
      refresh();
    },
    onError: (error) => toast({ title: "Not Changed", description: problemText(error), variant: "destructive" }),
  });
  const data = calendar.data;
  if (!data) return <main className="mx-auto max-w-5xl px-4 py-10 text-slate-400">Channel not found. <Link to="/channels" className="text-violet-300 underline">All channels</Link></main>;
  const channel = data.channel;
  const futureSlots = data.weeks.flatMap((w) => w.slots).filter((s) => !s.past);

  return (
    <main className="mx-auto grid max-w-5xl grid-cols-1 gap-6 px-4 py-10">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <Link to="/channels" className="text-sm text-slate-400 hover:text-slate-200">← Channels</Link>
          <h1 className="text-3xl font-bold">{channel.name}</h1>
          <p className="mt-1 text-slate-400">
            {channel.schedule.length} slots a week · {channel.timeZone} · {channel.approval === "auto" ? "videos approve themselves" : "you approve each video"} · made {channel.leadHours} h ahead
          </p>
        </div>
        <p className="text-sm text-slate-300">{channel.accounts.length ? channel.accounts.map((a) => a.label).join(", ") : "No platform account: videos wait to be posted"}</p>
      </div>

      <section aria-labelledby="calendar-title" className="grid grid-cols-1 gap-4">
        <h2 id="calendar-title" className="text-xl font-semibold">Calendar</h2>
        {data.weeks.map((week) => (
          <div key={week.weekOf} className="grid grid-cols-1 gap-2">
            <h3 className="text-sm font-medium uppercase tracking-wide text-slate-400">{week.label}</h3>
            {week.slots.length === 0 ? <p className="text-sm text-slate-400">No slots this week.</p> : null}
            <ul className="grid grid-cols-1 gap-2 md:grid-cols-3">
              {week.slots.map((slot) => (
                <li key={slot.at} data-testid="calendar-slot" className={`min-w-0 rounded-lg border bg-slate-900/60 p-3 ${slot.idea ? (STATE_CLASS[slot.idea.status] ?? "border-slate-700") : "border-dashed border-slate-700 text-slate-400"} ${slot.past && !slot.idea ? "italic" : ""}`}>
                  <p className="text-xs font-semibold uppercase tracking-wide">{slot.label}</p>
                  {slot.idea ? <p className="mt-1 font-medium text-slate-100">{slot.idea.title}</p> : null}
                  <p className={`mt-1 text-sm ${slot.idea?.late ? "font-medium text-amber-300" : ""}`}>{slot.stateLabel}</p>
                  {slot.idea?.posts.length ? (
                    <ul aria-label={`Where ${slot.idea.title} was posted`} className="mt-2 grid gap-1 border-t border-slate-800 pt-2 text-xs">
                      {slot.idea.posts.map((post) => (
                        <li key={`${post.platform}-${post.account}`} data-testid="idea-post" className={`break-words ${POST_STATE_CLASS[post.state] ?? "text-slate-300"}`}>
                          <span className="font-semibold">{post.account}</span>:{" "}
                          {post.link ? (
                            <a className="underline" href={post.link} target="_blank" rel="noreferrer">
                              {post.label}
                            </a>
                          ) : (
                            post.label
                          )}
                        </li>
                      ))}
                    </ul>
                  ) : null}
                  {slot.idea ? (
                    <div className="mt-2 flex flex-wrap items-center gap-2">
                      {slot.idea.status === "ready" ? (
                        <Button size="sm" onClick={() => changeIdea.mutate({ ideaId: slot.idea!.id, action: "approve" })}>Approve</Button>
                      ) : null}
                      {slot.idea.status === "failed" ? <Button size="sm" variant="outline" onClick={() => changeIdea.mutate({ ideaId: slot.idea!.id, action: "retry" })}>Try again</Button> : null}
                      {slot.idea.videoPage ? <Link className="text-sm text-violet-300 underline" to={slot.idea.videoPage}>Open video</Link> : null}
                      {slot.idea.youtubeUrl && !slot.idea.posts.length ? <a className="text-sm text-violet-300 underline" href={slot.idea.youtubeUrl} target="_blank" rel="noreferrer">On YouTube</a> : null}
                      {!["publishing", "published"].includes(slot.idea.status) ? (
                        <select
                          aria-label={`Move ${slot.idea.title}`}
                          className={`${selectClass} h-8 w-full min-w-0 text-xs`}
                          value=""
                          onChange={(e) => e.target.value && changeIdea.mutate({ ideaId: slot.idea!.id, action: "move", slotAt: e.target.value })}
                        >
                          <option value="">Move to...</option>
                          {futureSlots.filter((s) => s.at !== slot.at).map((s) => (
                            <option key={s.at} value={s.at}>{s.label}{s.idea ? ` (swap with ${s.idea.title.slice(0, 24)})` : ""}</option>
                          ))}
                        </select>
                      ) : null}
                    </div>
                  ) : null}
                </li>
              ))}
            </ul>
          </div>
        ))}
      </section>

      <IdeasCard base={base} unscheduled={data.unscheduled} onChange={refresh} />
      <KitCard channel={channel} base={base} onChange={refresh} />
    </main>
  );
}

function IdeasCard({ base, unscheduled, onChange }: { base: string; unscheduled: IdeaView[]; onChange: () => void }) {
  const [text, setText] = useState("");
  const add = useMutation({
    mutationFn: (body: { text: string } | { csv: string } | { suggest: { count: number } }) => apiRequest<{ ideas: IdeaView[] }>("POST", `${base}/ideas`, body),
    onSuccess: ({ ideas }) => {
      setText("");
      toast({ title: "Ideas Added", description: `${ideas.length} added to the queue.` });
      onChange();
    },
    onError: (error) => toast({ title: "Ideas Not Added", description: problemText(error), variant: "destructive" }),
  });
  return (
    <Card>
      <CardHeader>
        <CardTitle>Queue of ideas</CardTitle>
        <CardDescription>One idea a line: a title, or &quot;title | what it is about&quot;. Or import a CSV with title and topic columns. Ideas take the free slots in order.</CardDescription>
      </CardHeader>
      <CardContent className="grid grid-cols-1 gap-3">
        <textarea
          aria-label="Ideas"
          rows={4}
          value={text}
          onChange={(e) => setText(e.target.value)}
          placeholder={"Why octopuses have three hearts | how their blood works\nThe deepest fish ever filmed"}
          className="rounded-md border border-slate-700 bg-slate-900 p-3 text-sm text-slate-100"
        />
        <div className="flex flex-wrap items-center gap-3">
          <Button onClick={() => add.mutate({ text })} disabled={!text.trim() || add.isPending}>Add ideas</Button>
          <label className="text-sm text-slate-300">
            <span className="mr-2">Import CSV</span>
            <input type="file" accept=".csv,text/csv" aria-label="Ideas CSV" className="text-sm" onChange={(e) => void e.target.files?.[0]?.text().then((csv) => add.mutate({ csv }))} />
          </label>
          <Button variant="outline" onClick={() => add.mutate({ suggest: { count: 5 } })} disabled={add.isPending} title="Your text model (Gemini) suggests five ideas from the channel's topic and its past videos">
            Suggest 5 ideas
          </Button>
        </div>
        {unscheduled.length ? (
          <div>
            <p className="text-sm font-medium text-slate-300">Waiting for a slot ({unscheduled.length})</p>
            <ul className="mt-1 grid gap-1 text-sm text-slate-400">
              {unscheduled.slice(0, 20).map((i) => (
                <li key={i.id}>{i.title} <span className="text-slate-400">· {i.stateLabel}</span></li>
              ))}
            </ul>
          </div>
        ) : null}
      </CardContent>
    </Card>
  );
}

function KitCard({ channel, base, onChange }: { channel: ChannelView; base: string; onChange: () => void }) {
  const [kit, setKit] = useState<ChannelKit>(channel.kit);
  const [schedule, setSchedule] = useState<ScheduleSlot[]>(channel.schedule);
  const [approval, setApproval] = useState(channel.approval);
  const [accounts, setAccounts] = useState<AccountDraft[]>(() =>
    channel.accounts.map((a) =>
      a.platform === "youtube" ? { platform: "youtube" as const } : { platform: a.platform as "tiktok" | "instagram", connectionRef: a.connectionRef, ...(a.tiktok ? { tiktok: a.tiktok } : {}), ...(a.instagram ? { instagram: a.instagram } : {}) },
    ),
  );
  const accountsBlocked = accountProblems(accounts);
  const [paused, setPaused] = useState(channel.paused);
  const [hashtags, setHashtags] = useState(channel.kit.hashtags.join(" "));
  useEffect(() => setKit(channel.kit), [channel.kit]);
  const save = useMutation({
    mutationFn: () =>
      apiRequest<ChannelView>("PATCH", base, {
        kit: { ...kit, voice: kit.voice ?? undefined, hashtags: hashtags.split(/[\s,]+/).filter(Boolean) },
        schedule,
        approval,
        accounts,
        paused,
      }),
    onSuccess: () => {
      toast({ title: "Channel Saved", description: "The kit applies to every video made from now on." });
      onChange();
    },
    onError: (error) => toast({ title: "Not Saved", description: problemText(error), variant: "destructive" }),
  });
  const set = <K extends keyof ChannelKit>(key: K, value: ChannelKit[K]) => setKit((k) => ({ ...k, [key]: value }));
  // the creator's watermark image (Settings) is the picture a channel may use as its logo
  const config = useConfig();
  const watermarkFileId = /^\/api\/media\/([A-Za-z0-9_-]+)$/.exec(config.data?.watermarkImageUrl ?? "")?.[1];
  return (
    <Card>
      <CardHeader>
        <CardTitle>Brand kit and schedule</CardTitle>
        <CardDescription>Every video this channel makes gets these: its format and length, voice, captions (their font and colour), music mood, intro and outro cards, logo and watermark, description footer and hashtags.</CardDescription>
      </CardHeader>
      <CardContent className="grid grid-cols-1 gap-4">
        <div className="grid grid-cols-1 gap-3 sm:grid-cols-3">
          <Field label="Format" id="kit-format">
            <select id="kit-format" className={selectClass} value={kit.format} onChange={(e) => set("format", e.target.value as ChannelKit["format"])}>
              {RESOLUTIONS.map((r) => <option key={r} value={r}>{r}</option>)}
            </select>
          </Field>
          <Field label="Length (seconds)" id="kit-duration">
            <Input id="kit-duration" type="number" value={kit.duration ?? ""} onChange={(e) => set("duration", e.target.value ? Number(e.target.value) : undefined)} placeholder="format's default" />
          </Field>
          <Field label="Language" id="kit-language">
            <select id="kit-language" className={selectClass} value={kit.language} onChange={(e) => set("language", e.target.value)}>
              {LANGUAGES.map((l) => <option key={l.code} value={l.code}>{l.name}</option>)}
            </select>
          </Field>
          <Field label="Voice speed" id="kit-speed">
            <Input id="kit-speed" type="number" step="0.05" value={kit.voiceSpeed} onChange={(e) => set("voiceSpeed", Number(e.target.value))} />
          </Field>
          <Field label="Caption style" id="kit-caption">
            <select id="kit-caption" className={selectClass} value={kit.captions ? kit.captionStyle : "none"} onChange={(e) => (e.target.value === "none" ? set("captions", false) : setKit((k) => ({ ...k, captions: true, captionStyle: e.target.value as ChannelKit["captionStyle"] })))}>
              {CAPTION_PRESETS.map((p) => <option key={p} value={p}>{p}</option>)}
            </select>
          </Field>
          <Field label="Caption position" id="kit-caption-pos">
            <select id="kit-caption-pos" className={selectClass} value={kit.captionPosition} onChange={(e) => set("captionPosition", e.target.value as ChannelKit["captionPosition"])}>
              {CAPTION_POSITIONS.map((p) => <option key={p} value={p}>{p}</option>)}
            </select>
          </Field>
          <Field label="Music mood (Premium)" id="kit-mood">
            <Input id="kit-mood" value={kit.musicMood ?? ""} maxLength={120} onChange={(e) => setKit((k) => ({ ...k, musicMood: e.target.value || undefined, music: Boolean(e.target.value) }))} placeholder="no music" />
          </Field>
          <Field label="Music volume (%)" id="kit-volume">
            <Input id="kit-volume" type="number" min={0} max={100} value={kit.musicVolume} onChange={(e) => set("musicVolume", Number(e.target.value))} />
          </Field>
          <Field label="Privacy" id="kit-privacy">
            <select id="kit-privacy" className={selectClass} value={kit.privacyStatus} onChange={(e) => set("privacyStatus", e.target.value as ChannelKit["privacyStatus"])}>
              {PRIVACY_STATUSES.map((p) => <option key={p} value={p}>{p}</option>)}
            </select>
          </Field>
        </div>
        <Field label="What the channel is about (ideas are suggested from it)" id="kit-topic">
          <Input id="kit-topic" value={kit.topic ?? ""} maxLength={500} onChange={(e) => set("topic", e.target.value || undefined)} placeholder="e.g. strange facts about the deep sea" />
        </Field>
        <fieldset className="grid gap-3">
          <legend className="text-sm font-medium text-slate-200">The look of every video</legend>
          <div className="grid grid-cols-1 gap-3 sm:grid-cols-3">
            <Field label="Brand colour" id="kit-brand-color">
              <input id="kit-brand-color" type="color" className="h-10 w-full rounded-md border border-slate-700 bg-slate-900" value={kit.brandColor.toLowerCase()} onChange={(e) => set("brandColor", e.target.value.toUpperCase())} />
            </Field>
            <Field label="Card text colour" id="kit-text-color">
              <input id="kit-text-color" type="color" className="h-10 w-full rounded-md border border-slate-700 bg-slate-900" value={kit.brandTextColor.toLowerCase()} onChange={(e) => set("brandTextColor", e.target.value.toUpperCase())} />
            </Field>
            <Field label="Caption colour" id="kit-caption-color">
              <input id="kit-caption-color" type="color" className="h-10 w-full rounded-md border border-slate-700 bg-slate-900" value={kit.captionColor.toLowerCase()} onChange={(e) => set("captionColor", e.target.value.toUpperCase())} />
            </Field>
            <Field label="Caption font" id="kit-caption-font">
              <select id="kit-caption-font" className={selectClass} value={kit.captionFont} onChange={(e) => set("captionFont", e.target.value as ChannelKit["captionFont"])}>
                {CAPTION_FONTS.map((f) => <option key={f} value={f}>{CAPTION_FONT_LABELS[f]}</option>)}
              </select>
            </Field>
            <Field label="Intro card text" id="kit-intro">
              <Input id="kit-intro" value={kit.introText ?? ""} maxLength={120} onChange={(e) => set("introText", e.target.value || undefined)} placeholder="no intro" />
            </Field>
            <Field label="Outro card text" id="kit-outro">
              <Input id="kit-outro" value={kit.outroText ?? ""} maxLength={120} onChange={(e) => set("outroText", e.target.value || undefined)} placeholder="no outro" />
            </Field>
            <Field label="Card length (seconds)" id="kit-card-seconds">
              <Input id="kit-card-seconds" type="number" min={1} max={5} step="0.5" value={kit.cardSeconds} onChange={(e) => set("cardSeconds", Number(e.target.value))} />
            </Field>
          </div>
          <div className="flex flex-wrap gap-6 text-sm text-slate-200">
            <label className="flex items-center gap-2">
              <input
                type="checkbox"
                disabled={!watermarkFileId && !kit.logoFileId}
                checked={!!kit.logoFileId}
                onChange={(e) => setKit((k) => (e.target.checked && watermarkFileId ? { ...k, logoFileId: watermarkFileId } : { ...k, logoFileId: undefined, watermark: false }))}
              />{" "}
              Logo on the cards: my watermark image{watermarkFileId ? "" : " (upload one in Settings first)"}
            </label>
            <label className="flex items-center gap-2">
              <input type="checkbox" disabled={!kit.logoFileId} checked={kit.watermark && !!kit.logoFileId} onChange={(e) => set("watermark", e.target.checked)} /> Show the logo as a watermark on the video
            </label>
          </div>
        </fieldset>
        <Field label="Description footer" id="kit-footer">
          <textarea id="kit-footer" rows={2} maxLength={1000} className="rounded-md border border-slate-700 bg-slate-900 p-2 text-sm text-slate-100" value={kit.descriptionFooter ?? ""} onChange={(e) => set("descriptionFooter", e.target.value || undefined)} />
        </Field>
        <Field label="Hashtags" id="kit-hashtags">
          <Input id="kit-hashtags" value={hashtags} onChange={(e) => setHashtags(e.target.value)} placeholder="#ocean #facts" />
        </Field>
        <fieldset className="grid gap-2">
          <legend className="text-sm font-medium text-slate-200">Weekly slots ({channel.timeZone})</legend>
          {schedule.map((s, i) => (
            <div key={i} className="flex flex-wrap items-center gap-2">
              <select aria-label={`Slot ${i + 1} day`} className={selectClass} value={s.day} onChange={(e) => setSchedule((all) => all.map((x, j) => (j === i ? { ...x, day: Number(e.target.value) } : x)))}>
                {WEEKDAYS.map((d, j) => <option key={d} value={j + 1}>{d}</option>)}
              </select>
              <Input aria-label={`Slot ${i + 1} time`} type="time" className="w-28" value={s.time} onChange={(e) => setSchedule((all) => all.map((x, j) => (j === i ? { ...x, time: e.target.value } : x)))} />
              <Button variant="outline" size="sm" onClick={() => setSchedule((all) => all.filter((_, j) => j !== i))}>Remove</Button>
            </div>
          ))}
          <div>
            <Button variant="outline" size="sm" onClick={() => setSchedule((all) => [...all, { day: 1, time: "12:00" }])}>Add a slot</Button>
          </div>
        </fieldset>
        <div className="flex flex-wrap gap-6 text-sm text-slate-200">
          <label className="flex items-center gap-2">
            <input type="checkbox" checked={approval === "auto"} onChange={(e) => setApproval(e.target.checked ? "auto" : "manual")} /> Approve each video as soon as it is made
          </label>
          <label className="flex items-center gap-2">
            <input type="checkbox" checked={paused} onChange={(e) => setPaused(e.target.checked)} /> Paused (nothing is made or posted)
          </label>
        </div>
        <ChannelAccounts value={accounts} onChange={setAccounts} />
        {accountsBlocked.length ? (
          <ul className="grid gap-1 text-sm text-amber-300">
            {accountsBlocked.map((p) => <li key={p}>{p}</li>)}
          </ul>
        ) : null}
        <div>
          <Button onClick={() => save.mutate()} disabled={save.isPending || accountsBlocked.length > 0}>{save.isPending ? "Saving..." : "Save channel"}</Button>
        </div>
      </CardContent>
    </Card>
  );
}

function Field({ label, id, children }: { label: string; id: string; children: React.ReactNode }) {
  return (
    <div className="grid gap-1.5">
      <Label htmlFor={id}>{label}</Label>
      {children}
    </div>
  );
}
