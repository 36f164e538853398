// The YouTube upload form (spec sections 2, 4, 5): title, description and tags with counters and 'Exceeds YouTube
// limit', category, privacy, made-for-kids, an optional schedule (date with a minimum of today, time, the
// suggested next date), then the upload with its progress: the bytes YouTube has acknowledged as the server reports
// them (no number before it has one), and at the end the video id with a link to it.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { CalendarClock, CheckCircle2, ExternalLink, Sparkles } from "lucide-react";
import { useEffect, useMemo, useRef, useState, type MutableRefObject } from "react";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { Textarea } from "~/components/ui/textarea";
import { useProgressEvents } from "~/hooks/use-progress-events";
import { toast } from "~/hooks/use-toast";
import { ApiError, apiRequest, serverMessage } from "~/lib/api-client";
import { PRIVACY_STATUSES, UPLOAD_LIMITS } from "~/lib/constants";
import { calendarDateIn, nextScheduleDate, parseSchedulingDays, zonedTimeToInstant, type ScheduleSuggestion } from "~/lib/schedule";
import { cn } from "~/lib/utils";
import { exceedsDescriptionLimit, exceedsTagsLimit, initialCategory, parseTags, YOUTUBE_CATEGORY_TITLES, type YoutubeCategory } from "~/lib/youtube";
import { withChapters } from "~/lib/chapters";
import { preflightChecks, blockingItems, trimTags, trimToBytes, YOUTUBE_RULES, type PreflightFix } from "~/lib/preflight";
import { PreflightList } from "./preflight-list";
import { uploadProgressView } from "./upload-progress";
import {
  CATEGORIES_KEY,
  fetchCategories,
  fetchPreflightFacts,
  fetchUploadStatus,
  PREFLIGHT_KEY,
  savePreferredCategory,
  UPLOAD_STATUS_KEY,
  uploadRequest,
  type PreflightFacts,
  type UploadResponse,
} from "./upload-queries";

export type ScheduleSettings = { schedulingDays: string | null; defaultScheduleTime: string | null; lastScheduleDate: string | null };

const PRIVACY_LABELS: Record<(typeof PRIVACY_STATUSES)[number], string> = { public: "Public", unlisted: "Unlisted", private: "Private" };
const BUILTIN_CATEGORIES: YoutubeCategory[] = Object.entries(YOUTUBE_CATEGORY_TITLES).map(([id, title]) => ({ id, title }));

function Counter({ length, limit }: { length: number; limit: number }) {
  const over = length > limit;
  return (
    <span className={cn("text-xs", over ? "text-red-400" : "text-slate-400")}>
      {length.toLocaleString("en-US")}/{limit.toLocaleString("en-US")}
      {over ? <strong className="ml-2 font-semibold">Exceeds YouTube limit</strong> : null}
    </span>
  );
}

export function UploadForm(props: {
  projectTitle: string;
  script: string | null;
  videoUrl: string | null;
  schedule: ScheduleSettings;
  channelTitle: string | null;
  onDisconnect: () => void;
  /** what the server knows for the pre-flight check (refreshed when a thumbnail is approved) */
  preflight: PreflightFacts;
  /** whether AI made the video (its voices, pictures, clips): presets the synthetic-media switch (decision 240) */
  aiMade?: { declare: boolean; summary: string };
  /** the publish step's one button starts this upload too: the form hands it its submit and hides its own button */
  submitRef?: MutableRefObject<(() => void) | null>;
  hideSubmit?: boolean;
}) {
  const { projectTitle, videoUrl, schedule } = props;
  const queryClient = useQueryClient();
  const [title, setTitle] = useState(projectTitle);
  const [description, setDescription] = useState("");
  const [tags, setTags] = useState("");
  const [privacyStatus, setPrivacy] = useState<(typeof PRIVACY_STATUSES)[number]>("public");
  const [madeForKids, setMadeForKids] = useState(false);
  // status.containsSyntheticMedia, preset from what made the video (an AI voice, AI pictures or AI clips: on)
  const [syntheticMedia, setSyntheticMedia] = useState(props.aiMade?.declare ?? true);
  const [scheduleOn, setScheduleOn] = useState(false);
  const [date, setDate] = useState("");
  const [time, setTime] = useState("");
  const [timeZone, setTimeZone] = useState<string | null>(null);
  const [result, setResult] = useState<UploadResponse | null>(null);

  const categories = useQuery({ queryKey: CATEGORIES_KEY, queryFn: fetchCategories });
  const facts = useQuery({ queryKey: PREFLIGHT_KEY, queryFn: fetchPreflightFacts, initialData: props.preflight }).data ?? props.preflight;
  // the description and tags written from the script by the creator's text provider (or the offline writer)
  const metadata = useMutation({
    mutationFn: () => apiRequest<{ description: string; tags: string[] }>("POST", "/api/generate-metadata", { script: props.script, title: title || projectTitle }),
    onSuccess: (data) => {
      setDescription(data.description);
      setTags(data.tags.join(", "));
    },
    onError: (e) => toast({ title: "Generation failed", description: serverMessage(e), variant: "destructive" }),
  });
  const [categoryId, setCategoryId] = useState(initialCategory(null, false));
  const [categoryTouched, setCategoryTouched] = useState(false);
  useEffect(() => {
    if (categories.data && !categoryTouched) setCategoryId(initialCategory(categories.data.preferredCategoryId, true));
  }, [categories.data, categoryTouched]);

  // the browser's time zone is known only in the browser (not during server rendering)
  useEffect(() => setTimeZone(Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC"), []);
  const suggestion: ScheduleSuggestion | null = useMemo(
    () =>
      timeZone
        ? nextScheduleDate({
            lastScheduleDate: schedule.lastScheduleDate ? new Date(schedule.lastScheduleDate) : null,
            schedulingDays: parseSchedulingDays(schedule.schedulingDays),
            defaultScheduleTime: schedule.defaultScheduleTime,
            timeZone,
            now: new Date(),
          })
        : null,
    [schedule, timeZone],
  );
  const today = timeZone ? calendarDateIn(new Date(), timeZone) : undefined;
  // the clock the publish-time check reads: a time that was ahead can fall behind while the page is open
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(new Date()), 15_000);
    return () => window.clearInterval(timer);
  }, []);
  const publishAt = useMemo(
    () => (scheduleOn && date ? zonedTimeToInstant(date, time || suggestion?.time || "12:00", timeZone ?? "UTC").toISOString() : null),
    [scheduleOn, date, time, suggestion, timeZone],
  );
  const checks = useMemo(
    () =>
      preflightChecks({
        video: facts.video,
        title,
        description,
        tags: parseTags(tags),
        publishAt,
        thumbnail: facts.thumbnail,
        sceneChapters: facts.sceneChapters,
        captionsAllowed: facts.captionsAllowed,
        now,
      }),
    [facts, title, description, tags, publishAt, now],
  );
  const blocked = blockingItems(checks).length > 0;
  const fix = (action: PreflightFix) => {
    const noBrackets = (text: string) => text.replace(/[<>]/g, "");
    if (action === "shorten-title") setTitle((t) => t.trim().slice(0, YOUTUBE_RULES.titleChars).trimEnd());
    else if (action === "remove-angle-brackets") {
      setTitle(noBrackets);
      setDescription(noBrackets);
    } else if (action === "trim-description") setDescription((d) => trimToBytes(d));
    else if (action === "trim-tags") setTags((t) => trimTags(parseTags(t)).join(", "));
    else if (action === "use-scene-chapters") setDescription((d) => withChapters(d, facts.sceneChapters, UPLOAD_LIMITS.descriptionChars));
    else if (action === "remove-chapters") setDescription((d) => withChapters(d, []));
    else if (action === "publish-now") setScheduleOn(false);
    else if (action === "make-thumbnail") document.querySelector('[data-testid="thumbnail-generator"]')?.scrollIntoView({ behavior: "smooth", block: "start" });
  };

  // the bytes sent stream as progress events while uploading; polled every second when they cannot
  const statusLive = useRef(false);
  const status = useQuery({
    queryKey: UPLOAD_STATUS_KEY,
    queryFn: fetchUploadStatus,
    refetchInterval: (q) => (q.state.data?.status === "uploading" && !statusLive.current ? 1000 : false),
  });
  useProgressEvents("upload", UPLOAD_STATUS_KEY, status.data?.status === "uploading", statusLive);

  const upload = useMutation({
    mutationFn: uploadRequest,
    retry: false,
    onMutate: () => {
      setResult(null);
      // start reading the real bytes as soon as the server has the upload
      window.setTimeout(() => queryClient.invalidateQueries({ queryKey: UPLOAD_STATUS_KEY }), 500);
    },
    onSuccess: (data) => {
      setResult(data);
      toast({ title: "Upload complete", description: `YouTube video id: ${data.videoId}` });
      queryClient.invalidateQueries({ queryKey: UPLOAD_STATUS_KEY });
    },
    onError: (error) => {
      const description =
        error instanceof ApiError ? serverMessage(error) || "Upload failed" : error instanceof SyntaxError ? "Failed to parse response" : "Network error occurred";
      toast({ title: "Upload failed", description, variant: "destructive" });
      queryClient.invalidateQueries({ queryKey: UPLOAD_STATUS_KEY });
    },
  });

  const serverUploading = status.data?.status === "uploading";
  const active = upload.isPending || serverUploading;
  const { percent, detail } = uploadProgressView(status.data);
  const done = result ?? (status.data?.status === "completed" && status.data.videoId ? { videoId: status.data.videoId, url: status.data.url! } : null);

  const submit = () => {
    if (!videoUrl) {
      toast({ title: "No video found", description: "Please render your video first", variant: "destructive" });
      return;
    }
    if (!title.trim()) {
      toast({ title: "Title required", description: "Please enter a title for your video", variant: "destructive" });
      return;
    }
    const stopped = blockingItems(preflightChecks({ video: facts.video, title, description, tags: parseTags(tags), publishAt, thumbnail: facts.thumbnail, sceneChapters: facts.sceneChapters, now: new Date() }));
    if (stopped.length) {
      toast({ title: "Upload blocked", description: stopped.map((i) => i.detail).join(" "), variant: "destructive" });
      return;
    }
    upload.mutate({
      videoPath: videoUrl,
      title: title.trim(),
      description,
      tags: parseTags(tags),
      privacyStatus,
      categoryId,
      madeForKids,
      containsSyntheticMedia: syntheticMedia,
      ...(publishAt ? { publishAt } : {}),
    });
  };

  if (props.submitRef) props.submitRef.current = submit;

  const categoryOptions = categories.data?.categories ?? BUILTIN_CATEGORIES;
  const suggestionText = suggestion
    ? new Date(`${suggestion.date}T00:00:00Z`).toLocaleDateString("en-US", { weekday: "long", month: "long", day: "numeric", year: "numeric", timeZone: "UTC" })
    : null;

  return (
    <section aria-label="Upload to YouTube" className="space-y-5 rounded-xl border border-slate-800 bg-slate-900 p-6">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 className="text-xl font-semibold">Upload to YouTube</h2>
        <p className="text-sm text-slate-400">
          {props.channelTitle ? `Connected: ${props.channelTitle}` : "YouTube connected"} ·{" "}
          <button type="button" className="underline hover:text-white" onClick={props.onDisconnect}>
            Disconnect
          </button>
        </p>
      </div>

      <div className="space-y-2">
        <div className="flex items-center justify-between">
          <Label htmlFor="yt-title">Title</Label>
          <Counter length={title.trim().length} limit={YOUTUBE_RULES.titleChars} />
        </div>
        <Input id="yt-title" value={title} onChange={(e) => setTitle(e.target.value)} disabled={active} />
      </div>
      <div className="space-y-2">
        <div className="flex items-center justify-between">
          <Label htmlFor="yt-description">Description</Label>
          <Counter length={description.length} limit={UPLOAD_LIMITS.descriptionChars} />
        </div>
        {props.script ? (
          <Button type="button" variant="outline" size="sm" onClick={() => metadata.mutate()} disabled={active || metadata.isPending}>
            <Sparkles className="h-4 w-4" aria-hidden /> {metadata.isPending ? "Writing..." : "Write Description and Tags"}
          </Button>
        ) : null}
        <Textarea id="yt-description" rows={6} value={description} onChange={(e) => setDescription(e.target.value)} disabled={active} />
        {exceedsDescriptionLimit(description) ? <span className="sr-only">Description exceeds YouTube limit</span> : null}
      </div>
      <div className="space-y-2">
        <div className="flex items-center justify-between">
          <Label htmlFor="yt-tags">Tags (comma separated)</Label>
          <Counter length={tags.length} limit={UPLOAD_LIMITS.tagsChars} />
        </div>
        <Input id="yt-tags" value={tags} placeholder="bees, nature, science" onChange={(e) => setTags(e.target.value)} disabled={active} />
        {exceedsTagsLimit(tags) ? <span className="sr-only">Tags exceed YouTube limit</span> : null}
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <div className="space-y-2">
          <Label htmlFor="yt-category">Category</Label>
          <select
            id="yt-category"
            className="h-10 w-full rounded-md border border-slate-700 bg-slate-950 px-3 text-sm"
            value={categoryId}
            disabled={active}
            onChange={(e) => {
              setCategoryTouched(true);
              setCategoryId(e.target.value);
            }}
          >
            {categoryOptions.map((c) => (
              <option key={c.id} value={c.id}>
                {c.title}
              </option>
            ))}
          </select>
          <button
            type="button"
            className="text-xs text-slate-400 underline hover:text-white"
            onClick={() =>
              savePreferredCategory(categoryId).then(
                () => toast({ title: "Default category saved", description: `${categoryOptions.find((c) => c.id === categoryId)?.title ?? categoryId} is now your default.` }),
                (e: unknown) => toast({ title: "Save Failed", description: serverMessage(e), variant: "destructive" }),
              )
            }
          >
            Make this my default category
          </button>
        </div>
        <div className="space-y-2">
          <Label htmlFor="yt-privacy">Privacy</Label>
          <select
            id="yt-privacy"
            className="h-10 w-full rounded-md border border-slate-700 bg-slate-950 px-3 text-sm"
            value={scheduleOn ? "private" : privacyStatus}
            disabled={active || scheduleOn}
            onChange={(e) => setPrivacy(e.target.value as typeof privacyStatus)}
          >
            {PRIVACY_STATUSES.map((p) => (
              <option key={p} value={p}>
                {PRIVACY_LABELS[p]}
              </option>
            ))}
          </select>
          {scheduleOn ? <p className="text-xs text-slate-400">A scheduled video stays private until it is published.</p> : null}
        </div>
      </div>

      <fieldset className="space-y-2">
        <legend className="text-sm font-medium">Audience</legend>
        <label className="flex items-center gap-2 text-sm">
          <input type="radio" name="made-for-kids" checked={!madeForKids} onChange={() => setMadeForKids(false)} disabled={active} /> No, it&apos;s not made for kids
        </label>
        <label className="flex items-center gap-2 text-sm">
          <input type="radio" name="made-for-kids" checked={madeForKids} onChange={() => setMadeForKids(true)} disabled={active} /> Yes, it&apos;s made for kids
        </label>
      </fieldset>

      <div className="space-y-1">
        <label className="flex items-center gap-2 text-sm font-medium">
          <input type="checkbox" checked={syntheticMedia} onChange={(e) => setSyntheticMedia(e.target.checked)} disabled={active} /> Altered or synthetic content
        </label>
        <p className="text-xs text-slate-400">
          On: YouTube labels the video as altered or synthetic (realistic content made or changed with AI).{" "}
          <span data-testid="youtube-ai-made">{props.aiMade?.summary ?? "Reelsmith's voices and pictures are AI-made."}</span>
        </p>
      </div>

      <div className="space-y-3 rounded-lg border border-slate-800 p-4">
        <label className="flex items-center gap-2 text-sm font-medium">
          <input type="checkbox" checked={scheduleOn} onChange={(e) => setScheduleOn(e.target.checked)} disabled={active} />
          <CalendarClock className="h-4 w-4" aria-hidden /> Schedule publishing
        </label>
        {scheduleOn ? (
          <div className="grid gap-3 sm:grid-cols-2">
            <div className="space-y-1">
              <Label htmlFor="yt-date">Schedule date</Label>
              <Input id="yt-date" type="date" min={today} value={date} onChange={(e) => setDate(e.target.value)} disabled={active} />
            </div>
            <div className="space-y-1">
              <Label htmlFor="yt-time">Schedule time</Label>
              <Input id="yt-time" type="time" value={time} onChange={(e) => setTime(e.target.value)} disabled={active} />
            </div>
          </div>
        ) : null}
        {suggestion ? (
          <p className="text-sm text-slate-400" data-testid="suggested-date">
            Suggested next date: {suggestionText} at {suggestion.time}{" "}
            <button
              type="button"
              className="text-violet-300 underline"
              onClick={() => {
                setScheduleOn(true);
                setDate(suggestion.date);
                setTime(suggestion.time);
              }}
              disabled={active}
            >
              Use it
            </button>
          </p>
        ) : null}
      </div>

      <PreflightList items={checks} onFix={fix} disabled={active} />

      {/* not disabled while blocked: a click says why (and 'Title required' stays the spec's answer to no title) */}
      {props.hideSubmit && !active ? null : (
        <Button size="lg" onClick={submit} disabled={active} aria-describedby={blocked ? "preflight-blocked" : undefined}>
          {active ? "Uploading..." : scheduleOn && date ? "Schedule Upload" : "Upload to YouTube"}
        </Button>
      )}

      {active ? (
        <div className="space-y-2" aria-label="Upload progress">
          <div className="flex items-center gap-3">
            {/* no aria-valuenow and no number until the server reports the bytes: an indeterminate bar */}
            <div
              role="progressbar"
              aria-label="Upload progress"
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={percent ?? undefined}
              aria-valuetext={percent === null ? detail : undefined}
              className="h-3 flex-1 overflow-hidden rounded-full bg-slate-800"
            >
              {percent === null ? (
                <div className="h-full w-1/3 animate-pulse rounded-full bg-brand/60" />
              ) : (
                <div className="h-full rounded-full bg-brand transition-all" style={{ width: `${percent}%` }} />
              )}
            </div>
            {percent === null ? null : (
              <span className="w-12 text-right font-mono text-sm" data-testid="upload-percent">
                {percent}%
              </span>
            )}
          </div>
          <p className="text-sm text-slate-400" data-testid="upload-details">
            {detail}
          </p>
        </div>
      ) : null}

      {done ? (
        <div role="status" className="space-y-2 rounded-lg border border-emerald-800 bg-emerald-950 p-4 text-emerald-100">
          <p className="flex items-center gap-2 font-semibold">
            <CheckCircle2 className="h-5 w-5" aria-hidden /> Uploaded to YouTube
          </p>
          <p>
            Video ID: <code data-testid="youtube-video-id">{done.videoId}</code>
          </p>
          <a href={done.url} target="_blank" rel="noreferrer" className="inline-flex items-center gap-1 underline">
            Watch on YouTube <ExternalLink className="h-4 w-4" aria-hidden />
          </a>
          {status.data?.publishAt ? <p className="text-sm">Scheduled: private until {new Date(status.data.publishAt).toLocaleString()}.</p> : null}
          {status.data?.thumbnailError ? <p className="text-sm text-amber-200">{status.data.thumbnailError}</p> : null}
          {status.data?.captionsSet ? <p className="text-sm" data-testid="captions-sent">Captions: sent as a caption track viewers can switch on.</p> : null}
          {status.data?.captionError ? <p className="text-sm text-amber-200">{status.data.captionError}</p> : null}
        </div>
      ) : null}
      {!active && !done && status.data?.status === "error" && status.data.error ? (
        <p role="alert" className="rounded-lg border border-red-800 bg-red-950 p-3 text-sm text-red-200">
          The last upload failed: {status.data.error}
        </p>
      ) : null}
    </section>
  );
}
