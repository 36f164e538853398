import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData, useRevalidator } from "@remix-run/react";
import { useMutation } from "@tanstack/react-query";
import { ArrowLeft, Languages, Scissors, Sparkles } from "lucide-react";
import { useState } from "react";
import { Button } from "~/components/ui/button";
import { toast } from "~/hooks/use-toast";
import { apiRequest, serverMessage } from "~/lib/api-client";
import { languageLabel } from "~/lib/languages";
import { mediaSrcSet, mediaVariantUrl } from "~/lib/media-variants";
import { pageMeta } from "~/lib/meta";
import { shortSeconds } from "~/lib/short-runs";
import { cn } from "~/lib/utils";
import { requireUserId } from "~/server/auth.server";
import { getShortOptions, listFamily, SHORT_DEFAULT_SECONDS } from "~/server/shorts.server";
import { getVersionOptions } from "~/server/versions.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => pageMeta(`${data?.shorts.title ?? "Project"} · Shorts and versions · Reelsmith`);

// /projects/{id}/outputs: one video, many outputs (issue 51). Shorts cut from the video's own scenes (suggested
// runs first, or any run the creator picks) and versions in other languages (machine translated offline).
export async function loader({ request, params }: LoaderFunctionArgs) {
  const userId = await requireUserId(request);
  const [shorts, versions, family] = await Promise.all([getShortOptions(userId, params.id ?? "", SHORT_DEFAULT_SECONDS), getVersionOptions(userId, params.id ?? ""), listFamily(userId, params.id ?? "")]);
  return { shorts, versions, family };
}

type Data = ReturnType<typeof useLoaderData<typeof loader>>;

function ShortsCard({ shorts, onMade }: { shorts: Data["shorts"]; onMade: () => void }) {
  const first = shorts.suggestions[0];
  const [from, setFrom] = useState(first?.fromScene ?? 0);
  const [to, setTo] = useState(first?.toScene ?? 0);
  const [hook, setHook] = useState(first?.hook ?? "");
  const seconds = shortSeconds(shorts.scenes.filter((s) => s.cellIndex >= from && s.cellIndex <= to).map((s) => s.seconds));
  const tooLong = seconds > shorts.maxSeconds;
  const make = useMutation({
    mutationFn: () => apiRequest("POST", `/api/projects/${encodeURIComponent(shorts.projectId)}/shorts`, { fromScene: from, toScene: to, hook: hook.trim() || undefined, maxSeconds: shorts.maxSeconds }),
    onSuccess: () => {
      toast({ title: "Short made", description: "It is listed below and on the dashboard under this video. Open it to render and publish." });
      onMade();
    },
    onError: (error) => toast({ title: "Could not make the Short", description: serverMessage(error), variant: "destructive" }),
  });
  const choose = (s: { fromScene: number; toScene: number; hook: string }) => {
    setFrom(s.fromScene);
    setTo(s.toScene);
    setHook(s.hook);
  };
  if (!shorts.ready) {
    return <p className="rounded-lg border border-slate-800 bg-slate-900 p-4 text-slate-300">Every scene needs its picture and voiceover before Shorts can be cut. Finish them on the Storyboard page.</p>;
  }
  return (
    <section aria-labelledby="shorts-heading" className="space-y-4 rounded-xl border border-slate-800 bg-slate-900 p-5">
      <h2 id="shorts-heading" className="flex items-center gap-2 text-xl font-semibold">
        <Scissors className="h-5 w-5 text-violet-300" aria-hidden /> Shorts from this video
      </h2>
      <p className="text-sm text-slate-400">
        A run of scenes, at most {shorts.maxSeconds} s with its end card, made 9:16: each picture reframed around its subject, captions in the vertical safe zone, an opening line and an end card pointing to the full video.
      </p>
      {shorts.suggestions.length ? (
        <div>
          <h3 className="mb-2 flex items-center gap-1 text-sm font-medium text-slate-200">
            <Sparkles className="h-4 w-4 text-amber-300" aria-hidden /> Suggested
            <span className="font-normal text-slate-400">· by {shorts.suggestedBy}</span>
          </h3>
          {shorts.notice ? <p className="mb-2 text-xs text-amber-200">{shorts.notice}</p> : null}
          <ul className="grid gap-2 sm:grid-cols-3">
            {shorts.suggestions.map((s) => {
              const picked = s.fromScene === from && s.toScene === to;
              return (
                <li key={`${s.fromScene}-${s.toScene}`}>
                  <button
                    type="button"
                    onClick={() => choose(s)}
                    aria-pressed={picked}
                    className={cn("w-full rounded-lg border p-3 text-left text-sm", picked ? "border-brand bg-brand/15" : "border-slate-700 hover:border-slate-500")}
                  >
                    <span className="block font-medium text-slate-100">
                      Scenes {s.fromScene + 1}–{s.toScene + 1} · {Math.round(s.seconds)} s
                    </span>
                    <span className="block text-slate-400">{s.reason}</span>
                    <span className="mt-1 block italic text-slate-300">&ldquo;{s.hook}&rdquo;</span>
                  </button>
                </li>
              );
            })}
          </ul>
        </div>
      ) : null}
      <ol className="grid grid-cols-3 gap-2 sm:grid-cols-6" aria-label="Scenes">
        {shorts.scenes.map((scene) => {
          const inRun = scene.cellIndex >= from && scene.cellIndex <= to;
          return (
            <li key={scene.cellIndex}>
              <button
                type="button"
                title={scene.text}
                aria-label={`Scene ${scene.cellIndex + 1}, ${Math.round(scene.seconds)} s${inRun ? ", in the Short" : ""}`}
                onClick={() => (scene.cellIndex < from || scene.cellIndex > to ? (scene.cellIndex < from ? setFrom(scene.cellIndex) : setTo(scene.cellIndex)) : (setFrom(scene.cellIndex), setTo(scene.cellIndex)))}
                className={cn("block w-full overflow-hidden rounded-md border-2", inRun ? "border-brand" : "border-transparent opacity-60")}
              >
                {scene.imageUrl ? (
                  // a sixth of the page's 1024 px at most, a third of a phone: the sized WebP variants, not the full picture
                  <img src={mediaVariantUrl(scene.imageUrl, 320)} srcSet={mediaSrcSet(scene.imageUrl)} sizes="(min-width: 640px) 160px, 33vw" alt="" className="aspect-video w-full object-cover" loading="lazy" />
                ) : null}
                <span className="block bg-slate-950 px-1 py-0.5 text-xs text-slate-300">
                  {scene.cellIndex + 1} · {Math.round(scene.seconds)} s
                </span>
              </button>
            </li>
          );
        })}
      </ol>
      <div className="text-sm font-medium text-slate-200">
        <label htmlFor="short-hook">Opening line</label>
        <input id="short-hook" value={hook} maxLength={90} onChange={(e) => setHook(e.target.value)} className="mt-1 block w-full rounded-md border border-slate-700 bg-slate-950 px-3 py-2 text-slate-100" />
      </div>
      <div className="flex flex-wrap items-center gap-3">
        <Button onClick={() => make.mutate()} disabled={make.isPending || tooLong}>
          <Scissors className="h-4 w-4" aria-hidden /> {make.isPending ? "Cutting..." : `Make Short (scenes ${from + 1}–${to + 1})`}
        </Button>
        <span className={cn("text-sm", tooLong ? "text-red-300" : "text-slate-400")} role={tooLong ? "alert" : undefined}>
          About {Math.round(seconds)} s{tooLong ? `: over ${shorts.maxSeconds} s, choose fewer scenes` : ""}
        </span>
      </div>
    </section>
  );
}

function VersionsCard({ versions, onMade }: { versions: Data["versions"]; onMade: () => void }) {
  const [language, setLanguage] = useState(versions.targets[0]?.code ?? "");
  const [proofreadFirst, setProofreadFirst] = useState(true);
  const make = useMutation({
    mutationFn: () => apiRequest("POST", `/api/projects/${encodeURIComponent(versions.projectId)}/versions`, { language, voiceovers: !proofreadFirst }),
    onSuccess: () => {
      toast({
        title: "Version made",
        description: proofreadFirst ? "Machine translated: open it and proofread the scenes on the Storyboard page, then Generate all makes the voiceovers." : "Machine translated; its voiceovers are being made.",
      });
      onMade();
    },
    onError: (error) => toast({ title: "Could not make the version", description: serverMessage(error), variant: "destructive" }),
  });
  return (
    <section aria-labelledby="versions-heading" className="space-y-4 rounded-xl border border-slate-800 bg-slate-900 p-5">
      <h2 id="versions-heading" className="flex items-center gap-2 text-xl font-semibold">
        <Languages className="h-5 w-5 text-violet-300" aria-hidden /> Versions in other languages
      </h2>
      <p className="text-sm text-slate-400">
        The script and scenes translated by {versions.translator}, then offered for proofreading; the same pictures, with voiceovers and captions in the new language.
      </p>
      {versions.targets.length ? (
        <div className="flex flex-wrap items-end gap-3">
          <div className="text-sm font-medium text-slate-200">
            <label htmlFor="version-language">Language</label>
            <select id="version-language" value={language} onChange={(e) => setLanguage(e.target.value)} className="mt-1 block rounded-md border border-slate-700 bg-slate-950 px-3 py-2 text-slate-100">
              {versions.targets.map((t) => (
                <option key={t.code} value={t.code}>
                  {t.name}
                </option>
              ))}
            </select>
          </div>
          <label className="flex items-center gap-2 text-sm text-slate-300">
            <input type="checkbox" checked={proofreadFirst} onChange={(e) => setProofreadFirst(e.target.checked)} /> Proofread before the voiceovers are made
          </label>
          <Button onClick={() => make.mutate()} disabled={make.isPending || !language}>
            <Languages className="h-4 w-4" aria-hidden /> {make.isPending ? "Translating..." : "Make version"}
          </Button>
        </div>
      ) : (
        <p className="text-sm text-slate-300">This server has no offline translation from this video&apos;s language. Apertium translates English to Spanish, Catalan, Galician and Esperanto.</p>
      )}
    </section>
  );
}

export default function ProjectOutputsPage() {
  const { shorts, versions, family } = useLoaderData<typeof loader>();
  const revalidator = useRevalidator();
  return (
    <main className="mx-auto max-w-5xl space-y-6 px-4 py-10">
      <Link to="/dashboard" className="inline-flex items-center gap-2 text-slate-300 hover:text-white">
        <ArrowLeft className="h-4 w-4" aria-hidden /> Back to Dashboard
      </Link>
      <header>
        <h1 className="break-words text-3xl font-bold [overflow-wrap:anywhere]">{shorts.title}</h1>
        <p className="mt-2 text-slate-400">Shorts and versions</p>
      </header>
      <ShortsCard shorts={shorts} onMade={() => revalidator.revalidate()} />
      <VersionsCard versions={versions} onMade={() => revalidator.revalidate()} />
      <section aria-labelledby="family-heading" className="space-y-3">
        <h2 id="family-heading" className="text-xl font-semibold">
          Made from this video
        </h2>
        {family.length ? (
          <ul className="grid gap-2 sm:grid-cols-2">
            {family.map((p) => (
              <li key={p.id} className="rounded-lg border border-slate-800 bg-slate-900 p-3 text-sm">
                <span className="mr-2 rounded-full bg-slate-800 px-2 py-0.5 text-xs text-slate-300">{p.kind === "short" ? "Short · 9:16" : `Version · ${languageLabel(p.language)}`}</span>
                <span className="font-medium text-slate-100">{p.title}</span>
                <span className="block text-slate-400">
                  {p.durationSeconds} s · {p.rendered ? "rendered" : "not rendered yet: open it from the dashboard"}
                </span>
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-sm text-slate-400">Nothing yet. Shorts and versions appear here and under this video on the dashboard.</p>
        )}
      </section>
    </main>
  );
}
