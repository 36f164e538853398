// The owner's Operations page (issue 54, decision 209): the key figures an operator with Prometheus and Grafana
// reads from the dashboard (deploy/grafana/), for a self-hoster without them: renders running and waiting, failed
// stages this month, paid generations this month by provider, and media storage by kind.
import { Link } from "@remix-run/react";
import { Activity } from "lucide-react";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";

export type OperationsFigures = {
  rendersRunning: number;
  rendersWaiting: number;
  failuresByStage: Record<string, number>;
  paidGenerationsByProvider: Record<string, number>;
  storedBytesByKind: Record<string, number>;
  monthStart: string;
  readAt: string;
};

const STAGE_NAMES: Record<string, string> = { script: "Script", storyboard: "Storyboard", render: "Render", music: "Music", upload: "YouTube upload" };
const KIND_NAMES: Record<string, string> = { image: "Images", clip: "Clips", voiceover: "Voiceovers", music: "Music", video: "Videos", thumbnail: "Thumbnails", branding: "Branding", watermark: "Watermarks" };

/** 1536 -> "1.5 KB", in powers of 1024 as the storage card shows sizes. */
export function formatBytes(bytes: number): string {
  const units = ["B", "KB", "MB", "GB", "TB"];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${unit === 0 ? value : value.toFixed(1)} ${units[unit]}`;
}

function Figure({ label, value, hint }: { label: string; value: string | number; hint?: string }) {
  return (
    <div className="rounded-md border border-slate-800 bg-slate-950 p-4">
      <dt className="text-sm text-slate-400">{label}</dt>
      <dd className="mt-1 text-3xl font-semibold tabular-nums text-slate-100">{value}</dd>
      {hint ? <dd className="mt-1 text-xs text-slate-400">{hint}</dd> : null}
    </div>
  );
}

function Rows({ label, rows, empty, format = String }: { label: string; rows: [string, number][]; empty: string; format?: (n: number) => string }) {
  if (rows.length === 0) return <p className="text-sm text-slate-400">{empty}</p>;
  return (
    <table className="w-full text-sm" aria-label={label}>
      <tbody>
        {rows.map(([name, n]) => (
          <tr key={name} className="border-b border-slate-800 last:border-0">
            <th scope="row" className="py-2 text-left font-normal text-slate-300">
              {name}
            </th>
            <td className="py-2 text-right tabular-nums text-slate-100">{format(n)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function OperationsPage({ figures }: { figures: OperationsFigures }) {
  const month = new Date(figures.monthStart).toLocaleDateString("en", { month: "long", year: "numeric", timeZone: "UTC" });
  const failures = Object.entries(figures.failuresByStage).map(([stage, n]) => [STAGE_NAMES[stage] ?? stage, n] as [string, number]);
  const failed = failures.reduce((sum, [, n]) => sum + n, 0);
  const paid = Object.entries(figures.paidGenerationsByProvider).sort((a, b) => b[1] - a[1]);
  const stored = Object.entries(figures.storedBytesByKind)
    .sort((a, b) => b[1] - a[1])
    .map(([kind, n]) => [KIND_NAMES[kind] ?? kind, n] as [string, number]);
  return (
    <main className="mx-auto grid max-w-4xl gap-6 px-4 py-10">
      <div>
        <h1 className="flex items-center gap-2 text-3xl font-bold">
          <Activity className="h-7 w-7 text-sky-400" aria-hidden /> Operations
        </h1>
        <p className="mt-2 text-slate-400">
          What this Reelsmith is doing, for its owner. Read {new Date(figures.readAt).toLocaleString()}; figures for {month} count from the first of the month (UTC).
        </p>
      </div>
      <dl className="grid gap-4 sm:grid-cols-3">
        <Figure label="Renders running" value={figures.rendersRunning} />
        <Figure label="Videos waiting" value={figures.rendersWaiting} hint="queued for a free slot" />
        <Figure label={`Failed stages in ${month}`} value={failed} />
      </dl>
      <div className="grid gap-6 sm:grid-cols-2">
        <Card>
          <CardHeader>
            <CardTitle>Failures by stage</CardTitle>
            <CardDescription>Stages that ended in an error this month.</CardDescription>
          </CardHeader>
          <CardContent>
            <Rows label="Failures by stage" rows={failures} empty="No stage has failed this month." />
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>Spend this month</CardTitle>
            <CardDescription>Reelsmith records no prices: each generation a paid cloud provider made is counted, by provider.</CardDescription>
          </CardHeader>
          <CardContent>
            <Rows label="Paid generations by provider" rows={paid} empty="No paid generations this month: everything was made offline." format={(n) => `${n} generation${n === 1 ? "" : "s"}`} />
          </CardContent>
        </Card>
      </div>
      <Card>
        <CardHeader>
          <CardTitle>Media storage</CardTitle>
          <CardDescription>Every stored file, by kind.</CardDescription>
        </CardHeader>
        <CardContent>
          <Rows label="Media storage by kind" rows={stored} empty="Nothing stored yet." format={formatBytes} />
        </CardContent>
      </Card>
      <p className="text-sm text-slate-400">
        The same figures, and many more, are served to Prometheus at <code className="text-slate-300">/metrics</code> on the web server and the worker; a Grafana dashboard is in{" "}
        <code className="text-slate-300">deploy/grafana/</code>. See docs/operating.md. <Link to="/settings" className="text-sky-400 underline">Back to Settings</Link>
      </p>
    </main>
  );
}

/** The link on the owner's Settings page. */
export function OperationsLink() {
  return (
    <p className="text-sm text-slate-400">
      <Link to="/settings/operations" className="text-sky-400 underline">
        Operations
      </Link>
      : renders running and waiting, failures by stage, spend this month.
    </p>
  );
}
