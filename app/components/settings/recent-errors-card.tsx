import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { AlertTriangle } from "lucide-react";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { toast } from "~/hooks/use-toast";
import { apiGet, apiRequest, serverMessage } from "~/lib/api-client";
import { RECENT_ERRORS_SHOWN } from "~/lib/constants";
import type { ErrorLogEntry } from "./types";

export const ERROR_LOGS_KEY = ["error-logs"] as const;

export function RecentErrorsCard() {
  const queryClient = useQueryClient();
  const logs = useQuery({ queryKey: ERROR_LOGS_KEY, queryFn: () => apiGet<ErrorLogEntry[]>("/api/error-logs") });
  const clear = useMutation({
    mutationFn: () => apiRequest("DELETE", "/api/error-logs"),
    onSuccess: () => {
      queryClient.setQueryData(ERROR_LOGS_KEY, []);
      toast({ title: "Logs Cleared", description: "The error log is empty." });
    },
    onError: (error) => toast({ title: "Error", description: serverMessage(error), variant: "destructive" }),
  });
  const entries = (logs.data ?? []).slice(0, RECENT_ERRORS_SHOWN);

  return (
    <Card>
      <CardHeader className="flex-row items-start justify-between gap-4">
        <div className="grid gap-1.5">
          <CardTitle className="flex items-center gap-2">
            <AlertTriangle className="h-5 w-5 text-amber-400" aria-hidden /> Recent Errors
          </CardTitle>
          <CardDescription>The latest failures across the pipeline, newest first.</CardDescription>
        </div>
        <Button variant="outline" size="sm" disabled={clear.isPending || entries.length === 0} onClick={() => clear.mutate()}>
          Clear Logs
        </Button>
      </CardHeader>
      <CardContent>
        {logs.isLoading ? (
          <p className="text-sm text-slate-400">Loading error logs...</p>
        ) : logs.isError ? (
          <p className="text-sm text-red-400">{serverMessage(logs.error)}</p>
        ) : entries.length === 0 ? (
          <p className="text-sm text-slate-400">No errors logged yet. Try generating video content to see errors here.</p>
        ) : (
          <ul className="grid max-h-96 gap-2 overflow-y-auto pr-1" aria-label="Recent errors">
            {entries.map((entry) => (
              <li key={entry.id} className="rounded-md border border-slate-800 bg-slate-950 p-3 text-sm">
                <div className="flex items-center justify-between gap-2">
                  <span className="rounded bg-red-950 px-2 py-0.5 font-mono text-xs text-red-300">{entry.type}</span>
                  <time dateTime={entry.timestamp} className="text-xs text-slate-400">
                    {new Date(entry.timestamp).toLocaleString()}
                  </time>
                </div>
                <p className="mt-2 break-words text-slate-200">{entry.message}</p>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
