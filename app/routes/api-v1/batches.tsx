import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Link } from "@remix-run/react";
import { useState } from "react";
import { StageStrip, type StripStage } from "~/components/make-video/stage-strip";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { toast } from "~/hooks/use-toast";
import { apiGet, apiRequest, serverMessage } from "~/lib/api-client";
import { pageMeta } from "~/lib/meta";
import { requireUser } from "~/server/auth.server";

// /batches (issue 32, decision 164): start a batch from a CSV or JSON file (one video per row, a few at a time)
// and follow each row's stage; retry the failed rows. Everything goes through /api/v1/batches with the session.
export const meta: MetaFunction = () => pageMeta("Batches · Reelsmith");

export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  return null;
}

type Row = { id: string; batchRow: number; title: string; status: string; stageLabel: string; percent: number; error: string | null; projectId: string | null; stages?: StripStage[]; remainingSeconds?: number | null };
type Batch = { id: string; name: string; concurrency: number; createdAt: string; running: boolean; counts: { total: number; queued: number; running: number; completed: number; failed: number; cancelled: number }; rows: Row[] };

const EXAMPLE = "title,topic,format,duration\nHow bees dance,The waggle dance tells other bees where flowers are,9:16,15\nWhy owls turn their heads,Owl necks have 14 vertebrae,9:16,15";
const STATUS_CLASS: Record<string, string> = { completed: "text-emerald-300", failed: "text-red-300", cancelled: "text-slate-400", running: "text-sky-300", queued: "text-slate-300" };

export default function Batches() {
  const queryClient = useQueryClient();
  const batches = useQuery({
    queryKey: ["batches"],
    queryFn: () => apiGet<{ batches: Batch[] }>("/api/v1/batches"),
    refetchInterval: (query) => (query.state.data?.batches.some((b) => b.running) ? 3000 : false),
  });
  const [text, setText] = useState("");
  const [concurrency, setConcurrency] = useState(2);
  const start = useMutation({
    mutationFn: () => {
      const trimmed = text.trim();
      const body = trimmed.startsWith("[") ? { rows: JSON.parse(trimmed) as unknown[], concurrency } : { csv: trimmed, concurrency };
      return apiRequest<Batch>("POST", "/api/v1/batches", body);
    },
    onSuccess: () => {
      setText("");
      void queryClient.invalidateQueries({ queryKey: ["batches"] });
    },
    onError: (error) => toast({ title: "Batch Not Started", description: problemText(error), variant: "destructive" }),
  });
  const retry = useMutation({
    mutationFn: (id: string) => apiRequest<Batch>("POST", `/api/v1/batches/${encodeURIComponent(id)}/retry`),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ["batches"] }),
    onError: (error) => toast({ title: "Retry Failed", description: problemText(error), variant: "destructive" }),
  });

  return (
    <main className="mx-auto grid max-w-4xl gap-6 px-4 py-10">
      <div>
        <h1 className="text-3xl font-bold">Batches</h1>
        <p className="mt-2 text-slate-400">Many videos from one list: one row per video, made a few at a time. Each becomes a project you can open and change.</p>
      </div>
      <Card>
        <CardHeader>
          <CardTitle>New batch</CardTitle>
          <CardDescription>
            CSV with a header row of option names (title, topic or script, format, duration, language, voice, captions, ...) or a JSON array of
            objects. Choose a file or paste it.
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-3">
          <input
            type="file"
            accept=".csv,.json,text/csv,application/json"
            aria-label="Batch file"
            className="text-sm text-slate-300 file:mr-3 file:cursor-pointer file:rounded-md file:border file:border-slate-700 file:bg-slate-800 file:px-3 file:py-2 file:text-sm file:font-medium file:text-slate-100 hover:file:bg-slate-700"
            onChange={(e) => void e.target.files?.[0]?.text().then(setText)}
          />
          <textarea
            aria-label="Batch rows"
            rows={6}
            value={text}
            placeholder={EXAMPLE}
            onChange={(e) => setText(e.target.value)}
            className="rounded-md border border-slate-700 bg-slate-950 px-3 py-2 font-mono text-xs outline-none focus:border-brand"
          />
          <label className="flex items-center gap-2 text-sm">
            Videos at once
            <select value={concurrency} onChange={(e) => setConcurrency(Number(e.target.value))} className="rounded-md border border-slate-700 bg-slate-950 px-2 py-1">
              {[1, 2, 3, 4].map((n) => (
                <option key={n} value={n}>
                  {n}
                </option>
              ))}
            </select>
          </label>
          <Button className="justify-self-start" disabled={!text.trim() || start.isPending} onClick={() => start.mutate()}>
            {start.isPending ? "Starting..." : "Start Batch"}
          </Button>
        </CardContent>
      </Card>
      {batches.isError ? <p className="text-red-400">{serverMessage(batches.error)}</p> : null}
      {(batches.data?.batches ?? []).map((batch) => (
        <Card key={batch.id}>
          <CardHeader className="flex-row items-start justify-between gap-4">
            <div className="grid gap-1">
              <CardTitle>{batch.name}</CardTitle>
              <CardDescription>
                {batch.counts.completed} of {batch.counts.total} done
                {batch.counts.failed ? `, ${batch.counts.failed} failed` : ""} · {batch.concurrency} at once
              </CardDescription>
            </div>
            {!batch.running && batch.counts.failed + batch.counts.cancelled > 0 ? (
              <Button size="sm" variant="outline" disabled={retry.isPending} onClick={() => retry.mutate(batch.id)}>
                Retry Failed
              </Button>
            ) : null}
          </CardHeader>
          <CardContent>
            <table className="w-full text-sm" aria-label={`Rows of ${batch.name}`}>
              <thead className="text-left text-xs text-slate-400">
                <tr>
                  <th className="font-normal">#</th>
                  <th className="font-normal">Title</th>
                  <th className="font-normal">Stage</th>
                  <th className="font-normal">Progress</th>
                </tr>
              </thead>
              <tbody>
                {batch.rows.map((row) => (
                  <tr key={row.id} className="border-t border-slate-800 align-top">
                    <td className="py-1 pr-2 tabular-nums">{row.batchRow}</td>
                    <td className="py-1 pr-2">{row.projectId && row.status === "completed" ? <Link className="text-violet-300 underline" to={`/projects/${row.projectId}`}>{row.title}</Link> : row.title}</td>
                    <td className={`py-1 pr-2 ${STATUS_CLASS[row.status] ?? ""}`}>
                      {row.status === "running" && row.stages ? <StageStrip stages={row.stages} remainingSeconds={row.remainingSeconds ?? null} compact /> : row.status === "running" ? row.stageLabel : row.status}
                      {row.error ? <span className="block text-xs text-red-300">{row.error}</span> : null}
                    </td>
                    <td className="py-1 tabular-nums">{row.percent}%</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </CardContent>
        </Card>
      ))}
    </main>
  );
}

/** A problem's detail (the API's errors), or the message as it came. */
function problemText(error: unknown): string {
  if (error instanceof SyntaxError) return "The rows are not valid JSON.";
  const body = (error instanceof Error ? error.message : String(error)).replace(/^\d{3}: /, "");
  try {
    const parsed = JSON.parse(body) as { detail?: string };
    return parsed.detail ?? body;
  } catch {
    return body;
  }
}
