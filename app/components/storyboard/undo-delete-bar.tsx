// The few seconds after a scene is deleted (issue 33): it can be brought back with Undo until the time is up.
import { Undo2 } from "lucide-react";
import { useEffect, useState } from "react";
import { Button } from "~/components/ui/button";
import type { PendingDelete } from "./use-scene-editing";

export function UndoDeleteBar({ pending, onUndo }: { pending: PendingDelete | null; onUndo: () => void }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!pending) return;
    const tick = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(tick);
  }, [pending]);
  if (!pending) return null;
  const left = Math.max(0, Math.ceil((pending.until - now) / 1000));
  return (
    <div data-testid="undo-delete" className="fixed inset-x-4 bottom-4 z-40 mx-auto flex max-w-md items-center justify-between gap-3 rounded-xl border border-slate-700 bg-slate-900 p-3 shadow-lg sm:left-4 sm:right-auto">
      <p className="text-sm">
        Scene {pending.number} deleted. <span className="text-slate-400">Undo within {left} s.</span>
      </p>
      <Button size="sm" variant="outline" onClick={onUndo}>
        <Undo2 className="h-4 w-4" aria-hidden /> Undo
      </Button>
    </div>
  );
}
