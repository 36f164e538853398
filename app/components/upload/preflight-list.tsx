// The upload's pre-flight check on the Upload page (issue 37): each item passing (✓) or failing (✗) with what is
// wrong and its fix one click away; the items that would make YouTube refuse or mangle the upload say so and keep
// the Upload button disabled until they are fixed (the server refuses them too).
import { Link } from "@remix-run/react";
import { CheckCircle2, ShieldAlert, TriangleAlert, XCircle } from "lucide-react";
import { Button } from "~/components/ui/button";
import { KeepFiguresWithUnits } from "~/components/render/rendered-video";
import { blockingItems, type PreflightFix, type PreflightItem } from "~/lib/preflight";
import { cn } from "~/lib/utils";

export function PreflightList({ items, onFix, disabled }: { items: PreflightItem[]; onFix: (fix: PreflightFix) => void; disabled: boolean }) {
  const blocking = blockingItems(items);
  const failing = items.filter((i) => i.status === "fail").length;
  return (
    <section aria-label="Pre-flight check" className="space-y-3 rounded-lg border border-slate-800 p-4">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h3 className="flex items-center gap-2 font-semibold">
          <ShieldAlert className="h-4 w-4 text-brand" aria-hidden /> Pre-flight check
        </h3>
        <p className="text-xs text-slate-400" data-testid="preflight-summary">
          {failing === 0 ? `All ${items.length} checks pass` : `${items.length - failing} of ${items.length} checks pass`}
        </p>
      </div>
      <ul className="divide-y divide-slate-800">
        {items.map((item) => (
          <li key={item.id} data-testid={`preflight-${item.id}`} data-status={item.status} className="flex flex-col gap-2 py-2 sm:flex-row sm:items-start sm:justify-between">
            <div className="flex min-w-0 items-start gap-2">
              {item.status === "pass" ? (
                <CheckCircle2 className="mt-0.5 h-4 w-4 shrink-0 text-emerald-400" aria-label="passes" />
              ) : item.blocks ? (
                <XCircle className="mt-0.5 h-4 w-4 shrink-0 text-red-400" aria-label="blocks the upload" />
              ) : (
                <TriangleAlert className="mt-0.5 h-4 w-4 shrink-0 text-amber-300" aria-label="needs attention" />
              )}
              <div className="min-w-0">
                <p className="text-sm font-medium">{item.label}</p>
                <p className={cn("text-xs break-words", item.status === "pass" ? "text-slate-400" : item.blocks ? "text-red-300" : "text-amber-200")}>
                  <KeepFiguresWithUnits text={item.detail} />
                </p>
              </div>
            </div>
            {item.status === "fail" && item.fix ? <FixButton fix={item.fix} onFix={onFix} disabled={disabled} /> : null}
          </li>
        ))}
      </ul>
      {blocking.length ? (
        <p id="preflight-blocked" role="alert" className="rounded-md border border-red-800 bg-red-950 p-2 text-sm text-red-200" data-testid="preflight-blocked">
          Upload blocked: {blocking.map((i) => i.detail).join(" ")}
        </p>
      ) : null}
    </section>
  );
}

function FixButton({ fix, onFix, disabled }: { fix: NonNullable<PreflightItem["fix"]>; onFix: (fix: PreflightFix) => void; disabled: boolean }) {
  // under its reason on a phone (lined up with the text), beside it on a wider screen
  const className = "ml-6 shrink-0 self-start sm:ml-3";
  if (fix.action === "render-again") {
    return (
      <Button asChild variant="outline" size="sm" className={className}>
        <Link to="/render">{fix.label}</Link>
      </Button>
    );
  }
  return (
    <Button type="button" variant="outline" size="sm" className={className} onClick={() => onFix(fix.action)} disabled={disabled}>
      {fix.label}
    </Button>
  );
}
