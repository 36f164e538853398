// The notice the pipeline pages show while their reads fail: the server (or its worker) cannot be reached.
// It goes away by itself once a read succeeds again.
import { WifiOff } from "lucide-react";

export const SERVER_UNREACHABLE_TITLE = "Cannot reach the server";

export function ServerUnreachableNotice({ what }: { what: string }) {
  return (
    <div role="alert" data-testid="server-unreachable" className="mb-6 flex items-start gap-3 rounded-xl border border-amber-700 bg-amber-950 p-4 text-amber-100">
      <WifiOff className="mt-0.5 h-5 w-5 shrink-0 text-amber-400" aria-hidden />
      <p className="text-sm">
        <strong className="block text-base text-white">{SERVER_UNREACHABLE_TITLE}</strong>
        The last attempts to read {what} failed, so what this page showed may be out of date. It keeps trying every few seconds and updates by itself
        once the server answers again.
      </p>
    </div>
  );
}
