import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useFetcher, useLoaderData, useNavigate } from "@remix-run/react";
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { DurationSlider } from "~/components/create/duration-slider";
import { NarrationFields, type VoicesResponse } from "~/components/create/narration-fields";
import { ScriptSourcePicker, topicFromScript, type ScriptSource } from "~/components/create/script-source";
import { ScriptOutlineFields, scriptFromOutline, type OutlineValues } from "~/components/create/script-outline-fields";
import { OwnScriptEditor } from "~/components/script/own-script-editor";
import { OWN_SCRIPT_MESSAGES, scriptSections } from "~/lib/own-script";
import { DEFAULT_LANGUAGE } from "~/lib/languages";
import { ProjectVoiceSchema } from "~/lib/project-voice";
import { VOICE_SPEED } from "~/lib/voice-speed";
import { prisma } from "~/core/db.server";
import { getUserSettings } from "~/core/settings.server";
import { userProviders } from "~/server/providers.server";
import { Button } from "~/components/ui/button";
import { MakeWholeVideoButton } from "~/components/make-video/make-whole-video-button";
import { toast } from "~/hooks/use-toast";
import { clearCurrentScript, saveVideoDetails } from "~/lib/browser-storage";
import { DURATION_RULES, RESOLUTIONS, resolutionEnum, resolutionValue, type ResolutionValue } from "~/lib/video-format";
import type { Resolution } from "~/generated/prisma/client";
import { MISSING_INFORMATION, VideoDetailsSchema, durationIsValid, invalidDurationMessage, type VideoDetails } from "~/lib/video-details";
import { requireUserId } from "~/server/auth.server";
import { createProject } from "~/core/projects.server";
import { checkedOwnScript } from "~/core/own-script.server";
import { saveOwnScript } from "~/server/script.server";
import { MAX_JSON_BYTES, readBodyCapped } from "~/server/api.server";
import { pageMeta } from "~/lib/meta";
import { isRefusal } from "~/core/refusal.server";
import { thrownResponse } from "~/server/api.server";

export const meta: MetaFunction = () => pageMeta("Create New Video · Reelsmith");

/**
 * The offline voices, which are a list in the code, or null when a voice service speaks for the creator (its list is
 * a request of the page's own: it can take a second). Sent with the page, the voice select is drawn on the server, so
 * a phone does not insert a hundred options in one long task when the list arrives (issue 36).
 */
async function voicesSentWithPage(userId: string): Promise<VoicesResponse | null> {
  const { speech } = await userProviders(userId);
  if (speech.source !== "offline") return null;
  return { voices: await speech.listVoices(), source: speech.source, provider: speech.name };
}

/** Whether a text model writes this creator's drafts (a Gemini key or a model server); else only the template can. */
async function textModelSet(userId: string): Promise<boolean> {
  const { text } = await userProviders(userId);
  return text.source !== "offline";
}

/** The format and duration the creator's last project had (a Shorts creator keeps making Shorts), else the defaults. */
function lastFormat(last: { resolution: Resolution; durationSeconds: number } | null): { resolution: ResolutionValue; duration: number } {
  const resolution = last ? resolutionValue(last.resolution) : "16:9";
  const duration = last && durationIsValid(resolution, last.durationSeconds) ? last.durationSeconds : DURATION_RULES[resolution].default;
  return { resolution, duration };
}

// The form starts as the creator's last project had it: its format, duration and narration (a French creator stays
// French), and knows the saved voice. Title and topic start empty: they are the new video's own (decision 191).
export async function loader({ request }: LoaderFunctionArgs) {
  const userId = await requireUserId(request);
  const [last, settings, voices, modelSet] = await Promise.all([
    prisma.project.findFirst({
      where: { userId },
      orderBy: { createdAt: "desc" },
      select: { language: true, voiceId: true, voiceSpeed: true, resolution: true, durationSeconds: true },
    }),
    getUserSettings(userId),
    voicesSentWithPage(userId),
    textModelSet(userId),
  ]);
  return {
    narration: { language: last?.language ?? DEFAULT_LANGUAGE, voiceId: last?.voiceId ?? "", voiceSpeed: last?.voiceSpeed ?? VOICE_SPEED.default },
    format: lastFormat(last),
    savedVoiceId: settings.elevenLabsVoiceId,
    voices,
    modelSet,
  };
}

type ActionResult = { ok: true; details: VideoDetails } | { ok: false; message: string; field?: string };

// Creates the project (free accounts: one) with the checked details; the page then goes to /script.
export async function action({ request }: ActionFunctionArgs): Promise<Response> {
  const userId = await requireUserId(request);
  const form = Object.fromEntries(new URLSearchParams((await readBodyCapped(request, MAX_JSON_BYTES)).toString("utf8")));
  const parsed = VideoDetailsSchema.safeParse(form);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return Response.json({ ok: false, message: issue.message, field: String(issue.path[0]) } satisfies ActionResult, { status: 400 });
  }
  const details = parsed.data;
  const narration = ProjectVoiceSchema.safeParse({ language: form.language || undefined, voiceId: form.voiceId, voiceSpeed: form.voiceSpeed || undefined });
  if (!narration.success) {
    const issue = narration.error.issues[0]!;
    return Response.json({ ok: false, message: issue.message, field: String(issue.path[0]) } satisfies ActionResult, { status: 400 });
  }
  // the creator's own words (issue 33): checked before the project exists, so a refused script creates nothing
  let ownScript: string | null = null;
  if (form.scriptSource === "own") {
    try {
      ownScript = checkedOwnScript(form.script ?? "");
    } catch (e) {
      if (!isRefusal(e)) throw e;
      return Response.json({ ok: false, message: e.message, field: "script" } satisfies ActionResult, { status: e.status });
    }
  }
  try {
    const project = await createProject(userId, {
      title: details.title,
      topic: details.topic,
      resolution: resolutionEnum(details.resolution),
      durationSeconds: details.duration,
      ...narration.data,
    });
    if (ownScript !== null) await saveOwnScript({ userId, projectId: project.id, text: ownScript });
  } catch (e) {
    const answer = thrownResponse(e);
    if (answer) {
      const body = (await answer.json().catch(() => ({}))) as { message?: string };
      return Response.json({ ok: false, message: body.message ?? "Could not create the project." } satisfies ActionResult, { status: answer.status });
    }
    throw e;
  }
  return Response.json({ ok: true, details } satisfies ActionResult);
}

const FORMAT_LABELS: Record<ResolutionValue, { name: string; hint: string }> = {
  "16:9": { name: "16:9 Landscape", hint: "YouTube videos, 5 to 60 minutes" },
  "9:16": { name: "9:16 Shorts", hint: "YouTube Shorts, 5 seconds to 3 minutes" },
  "9:16-tiktok": { name: "9:16 TikTok", hint: "TikTok, 5 seconds to 60 minutes" },
};

export default function CreateVideo() {
  const { narration, format, savedVoiceId, voices, modelSet } = useLoaderData<typeof loader>();
  const fetcher = useFetcher<ActionResult>();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [title, setTitle] = useState("");
  const [topic, setTopic] = useState("");
  const [resolution, setResolution] = useState<ResolutionValue>(format.resolution);
  const [duration, setDuration] = useState(format.duration);
  const [language, setLanguage] = useState(narration.language);
  const [voiceId, setVoiceId] = useState(narration.voiceId);
  const [voiceSpeed, setVoiceSpeed] = useState(narration.voiceSpeed);
  // with no text model the creator's own words come first, as an outline to fill (issue 48)
  const [scriptSource, setScriptSource] = useState<ScriptSource>(modelSet ? "write" : "own");
  const [outlineMode, setOutlineMode] = useState(!modelSet);
  const [outline, setOutline] = useState<OutlineValues>({});
  const [plainScript, setPlainScript] = useState("");
  const own = scriptSource === "own";
  const ownScript = outlineMode ? scriptFromOutline(outline) : plainScript;
  const busy = fetcher.state !== "idle";

  // Words typed before the page came alive (a slow phone) are in the fields but not yet in the form's state: keep them.
  const titleInput = useRef<HTMLInputElement>(null);
  const topicInput = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    const typedTitle = titleInput.current?.value ?? "";
    const typedTopic = topicInput.current?.value ?? "";
    if (typedTitle) setTitle((current) => current || typedTitle);
    if (typedTopic) setTopic((current) => current || typedTopic);
  }, []);

  useEffect(() => {
    const result = fetcher.data;
    if (!result || fetcher.state !== "idle") return;
    if (result.ok) {
      saveVideoDetails(window.localStorage, result.details);
      clearCurrentScript(window.localStorage);
      // every cached read (script status, scenes, tracks, videos) was about the previous project
      queryClient.clear();
      navigate("/script");
    } else {
      toast({ title: result.field === "duration" ? "Invalid Duration" : "Could not create the video", description: result.message, variant: "destructive" });
    }
  }, [fetcher.data, fetcher.state, navigate, queryClient]);

  function chooseFormat(next: ResolutionValue) {
    setResolution(next);
    setDuration(DURATION_RULES[next].default);
  }

  function submit(event: React.FormEvent) {
    event.preventDefault();
    // an empty form hears the spec's message first, whichever script source is chosen
    if (!title.trim()) {
      toast({ ...MISSING_INFORMATION, variant: "destructive" });
      return;
    }
    if (own && !scriptSections(ownScript).length) {
      toast({ title: "Missing Information", description: OWN_SCRIPT_MESSAGES.empty, variant: "destructive" });
      return;
    }
    // with the creator's own words the topic may stay empty: their opening words describe the video
    const sentTopic = topic.trim() || (own ? topicFromScript(ownScript) : "");
    if (!title.trim() || !sentTopic) {
      toast({ ...MISSING_INFORMATION, variant: "destructive" });
      return;
    }
    if (!durationIsValid(resolution, duration)) {
      toast({ title: "Invalid Duration", description: invalidDurationMessage(resolution), variant: "destructive" });
      return;
    }
    fetcher.submit(
      {
        title: title.trim(),
        topic: sentTopic,
        resolution,
        duration: String(duration),
        language,
        voiceId,
        voiceSpeed: String(voiceSpeed),
        scriptSource,
        ...(own ? { script: ownScript } : {}),
      },
      { method: "post" },
    );
  }

  return (
    <main className="mx-auto max-w-2xl px-4 py-10">
      <h1 className="text-3xl font-bold">Create New Video</h1>
      <p className="mt-2 text-slate-400">{own ? "Describe your video and give it your words." : "Describe your video. Reelsmith writes the script next."}</p>
      <form onSubmit={submit} noValidate className="mt-8 grid gap-6 rounded-xl border border-slate-800 bg-slate-900 p-6">
        <label className="grid gap-2">
          <span className="text-sm font-medium">Title</span>
          <input
            ref={titleInput}
            name="title"
            value={title}
            onChange={(e) => setTitle(e.target.value)}
            maxLength={200}
            placeholder="e.g. The Secret Life of Octopuses"
            className="rounded-md border border-slate-700 bg-slate-950 px-3 py-2 outline-none focus:border-brand"
          />
        </label>
        <ScriptSourcePicker value={scriptSource} onChange={setScriptSource} modelSet={modelSet} />
        {own && outlineMode ? (
          <ScriptOutlineFields
            values={outline}
            onChange={setOutline}
            onWholeText={() => {
              setPlainScript(scriptFromOutline(outline));
              setOutlineMode(false);
            }}
            durationSeconds={duration}
            resolution={resolution}
            language={language}
            voiceId={voiceId || null}
            voiceSpeed={voiceSpeed}
          />
        ) : own ? (
          <OwnScriptEditor
            value={ownScript}
            onChange={setPlainScript}
            title={title}
            durationSeconds={duration}
            resolution={resolution}
            language={language}
            voiceId={voiceId || null}
            voiceSpeed={voiceSpeed}
          />
        ) : null}
        <label className="grid gap-2">
          <span className="text-sm font-medium">{own ? "Topic (optional: your opening words are used when empty)" : "Topic"}</span>
          <textarea
            ref={topicInput}
            name="topic"
            value={topic}
            onChange={(e) => setTopic(e.target.value)}
            rows={own ? 2 : 4}
            maxLength={5000}
            placeholder="What should the video be about? Key points, audience, tone..."
            className="rounded-md border border-slate-700 bg-slate-950 px-3 py-2 outline-none focus:border-brand"
          />
        </label>
        <fieldset className="grid gap-2">
          <legend className="mb-2 text-sm font-medium">Format</legend>
          <div className="grid gap-3 sm:grid-cols-3">
            {RESOLUTIONS.map((value) => (
              <label
                key={value}
                className={`cursor-pointer rounded-lg border p-3 text-sm has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-brand ${resolution === value ? "border-brand bg-brand/10" : "border-slate-700"}`}
              >
                <input type="radio" name="resolution" value={value} checked={resolution === value} onChange={() => chooseFormat(value)} className="sr-only" />
                <span className="block font-semibold">{FORMAT_LABELS[value].name}</span>
                <span className="text-slate-400">{FORMAT_LABELS[value].hint}</span>
              </label>
            ))}
          </div>
        </fieldset>
        <DurationSlider resolution={resolution} value={duration} onChange={setDuration} />
        <NarrationFields
          language={language}
          voiceId={voiceId}
          voiceSpeed={voiceSpeed}
          savedVoiceId={savedVoiceId}
          initialVoices={voices}
          onLanguage={setLanguage}
          onVoice={setVoiceId}
          onSpeed={setVoiceSpeed}
        />
        {/* not full width: the bottom-right toast that may follow a click never covers it */}
        <Button type="submit" size="lg" disabled={busy} className="sm:justify-self-start">
          {busy ? "Creating..." : "Create Video"}
        </Button>
        <MakeWholeVideoButton
          details={{ title, topic, format: resolution, duration, language, voice: voiceId, voiceSpeed, ...(own ? { script: ownScript } : {}) }}
          disabled={busy}
          valid={() => {
            if (!title.trim() || (!own && !topic.trim())) toast({ ...MISSING_INFORMATION, variant: "destructive" });
            else if (own && !scriptSections(ownScript).length) toast({ title: "Missing Information", description: OWN_SCRIPT_MESSAGES.empty, variant: "destructive" });
            else if (!durationIsValid(resolution, duration)) toast({ title: "Invalid Duration", description: invalidDurationMessage(resolution), variant: "destructive" });
            else return true;
            return false;
          }}
        />
      </form>
    </main>
  );
}
