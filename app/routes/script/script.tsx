import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { AlertTriangle } from "lucide-react";
import { NarrationSummary } from "~/components/script/narration-summary";
import { ScriptComplete } from "~/components/script/script-complete";
import { ScriptProgressView } from "~/components/script/script-progress";
import { useScriptGeneration } from "~/components/script/use-script-generation";
import { ServerUnreachableNotice } from "~/components/layout/server-unreachable";
import { Button } from "~/components/ui/button";
import { loadCurrentScript } from "~/lib/browser-storage";
import type { VideoDetails } from "~/lib/video-details";
import { requireUserId } from "~/server/auth.server";
import { getCurrentProject } from "~/core/projects.server";
import { resolutionValue } from "~/lib/video-format";
import { describeNarration, type ProjectNarration } from "~/server/voices.server";
import { createContext, useContext, useState } from "react";
import { ScriptEditor } from "~/components/script/script-editor";
import { TemplateDraftNotice } from "~/components/script/template-draft-notice";
import { isTemplateDraft } from "~/lib/provenance";
import { pageMeta } from "~/lib/meta";

export const meta: MetaFunction = () => pageMeta("Script · Reelsmith");

// The server's current project, so the page works on a browser that has no saved details.
export async function loader({ request }: LoaderFunctionArgs) {
  const userId = await requireUserId(request);
  const project = await getCurrentProject(userId);
  const details: VideoDetails | null = project
    ? { title: project.title, topic: project.topic, resolution: resolutionValue(project.resolution), duration: project.durationSeconds }
    : null;
  return { details, narration: project ? await describeNarration(userId, project) : null };
}

/** The project's narration, shown at the top of every state of the page that has a project. */
const NarrationContext = createContext<ProjectNarration | null>(null);

// The spec's notice, as one text: its title, " - ", its description.
const STUCK_NOTICE = "Script Generation Taking Too Long - The generation has been running for over 30 minutes. You can reset and try again.";
const [STUCK_TITLE, STUCK_DESCRIPTION] = STUCK_NOTICE.split(" - ") as [string, string];

export default function ScriptPage() {
  const { details: serverDetails, narration } = useLoaderData<typeof loader>();
  return (
    <NarrationContext.Provider value={narration}>
      <ScriptStates serverDetails={serverDetails} />
    </NarrationContext.Provider>
  );
}

function ScriptStates({ serverDetails }: { serverDetails: VideoDetails | null }) {
  const { details, data, unreachable, start, resetAndRetry, storyboard, download } = useScriptGeneration(serverDetails);
  const notice = unreachable ? <ServerUnreachableNotice what="the script's status" /> : null;
  const narration = useContext(NarrationContext);
  const [editing, setEditing] = useState(false);

  if (details === undefined) return <PageShell>Loading...</PageShell>;

  if (!details) {
    return (
      <PageShell>
        <div className="rounded-xl border border-slate-800 bg-slate-900 p-10 text-center">
          <h1 className="text-2xl font-bold">No Video Details Found</h1>
          <p className="mt-2 text-slate-400">Describe your video first; the script is written from its title and topic.</p>
          <Button asChild className="mt-6">
            <Link to="/create">Set Up Video Details</Link>
          </Button>
        </div>
      </PageShell>
    );
  }

  if (data?.status === "completed" && data.script) {
    if (editing && narration) {
      return (
        <PageShell>
          {notice}
          <ScriptEditor
            projectId={narration.projectId}
            title={data.title ?? details.title}
            script={data.script}
            durationSeconds={details.duration}
            resolution={details.resolution}
            language={narration.language}
            voiceId={narration.voiceId}
            voiceSpeed={narration.voiceSpeed}
            onDone={() => setEditing(false)}
          />
        </PageShell>
      );
    }
    return (
      <PageShell>
        {notice}
        {isTemplateDraft(data.writtenBy) && narration ? <TemplateDraftNotice onEdit={() => setEditing(true)} /> : null}
        <ScriptComplete
          onEdit={narration && !unreachable ? () => setEditing(true) : undefined}
          title={data.title ?? details.title}
          script={data.script}
          onDownload={download}
          onGenerateStoryboard={() => storyboard.mutate()}
          storyboardBusy={storyboard.isPending}
          writtenBy={data.writtenBy ?? null}
          disabled={unreachable}
        />
      </PageShell>
    );
  }

  if (data?.status === "processing") {
    return (
      <PageShell>
        {notice}
        {data.isStuck ? (
          <div role="alert" className="mb-6 flex flex-wrap items-center justify-between gap-4 rounded-xl border border-amber-700 bg-amber-950 p-4">
            <div className="flex items-start gap-3">
              <AlertTriangle className="mt-0.5 h-5 w-5 text-amber-400" aria-hidden />
              <p className="text-sm text-amber-100">
                <strong className="block text-base text-white">{STUCK_TITLE}</strong>
                {STUCK_DESCRIPTION}
              </p>
            </div>
            <Button variant="outline" onClick={resetAndRetry} disabled={start.isPending || unreachable}>
              Reset & Retry
            </Button>
          </div>
        ) : null}
        <ScriptProgressView title={data.title ?? details.title} progress={data.progress} />
      </PageShell>
    );
  }

  if (data?.status === "error" || data?.status === "cancelled") {
    return (
      <PageShell>
        {notice}
        <div className="rounded-xl border border-slate-800 bg-slate-900 p-10 text-center">
          <h1 className="text-2xl font-bold">{data.status === "error" ? "Script generation failed" : "Script generation was cancelled"}</h1>
          <p className="mt-2 text-slate-400">{data.error || "An error occurred during script generation"}</p>
          <Button className="mt-6" onClick={() => start.mutate(details)} disabled={start.isPending || unreachable}>
            Generate Script
          </Button>
        </div>
      </PageShell>
    );
  }

  const cached = typeof window !== "undefined" ? loadCurrentScript(window.localStorage) : null;
  return (
    <PageShell>
      {notice}
      <ScriptProgressView title={cached?.title ?? details.title} progress={null} />
    </PageShell>
  );
}

function PageShell({ children }: { children: React.ReactNode }) {
  const narration = useContext(NarrationContext);
  return (
    <main className="mx-auto max-w-4xl px-4 py-10">
      {narration ? <NarrationSummary narration={narration} /> : null}
      {children}
    </main>
  );
}
