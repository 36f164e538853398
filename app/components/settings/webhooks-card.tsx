// Settings > Webhooks (issue 32, decision 163): add a URL for video events (its signing secret shown once), see
// each endpoint's latest deliveries (the delivery log), remove one.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Webhook } from "lucide-react";
import { useState } from "react";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { toast } from "~/hooks/use-toast";
import { apiGet, apiRequest, serverMessage } from "~/lib/api-client";
import type { WebhookEndpointView } from "~/core/webhooks.server";
import { WEBHOOK_EVENTS } from "../../../workflows/shared/webhooks";

export const WEBHOOKS_KEY = ["webhooks"] as const;

const STATUS_CLASS: Record<string, string> = { delivered: "text-emerald-300", failed: "text-red-300", pending: "text-amber-300" };

export function WebhooksCard() {
  const queryClient = useQueryClient();
  const list = useQuery({ queryKey: WEBHOOKS_KEY, queryFn: () => apiGet<{ endpoints: WebhookEndpointView[]; mayAllowPrivate: boolean }>("/api/webhooks"), refetchInterval: 15_000 });
  const [url, setUrl] = useState("");
  const [events, setEvents] = useState<string[]>([...WEBHOOK_EVENTS]);
  const [allowPrivate, setAllowPrivate] = useState(false);
  const [secret, setSecret] = useState<string | null>(null);
  const add = useMutation({
    mutationFn: () => apiRequest<{ secret: string }>("POST", "/api/webhooks", { url, events, allowPrivate: allowPrivate && mayAllowPrivate }),
    onSuccess: (made) => {
      setSecret(made.secret);
      setUrl("");
      void queryClient.invalidateQueries({ queryKey: WEBHOOKS_KEY });
    },
    onError: (error) => toast({ title: "Endpoint Not Added", description: serverMessage(error), variant: "destructive" }),
  });
  const remove = useMutation({
    mutationFn: (id: string) => apiRequest("DELETE", `/api/webhooks/${encodeURIComponent(id)}`),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: WEBHOOKS_KEY }),
    onError: (error) => toast({ title: "Error", description: serverMessage(error), variant: "destructive" }),
  });
  const endpoints = list.data?.endpoints ?? [];
  // only the owner (or everyone, by the operator's setting) may send to private addresses: others never see the tick
  const mayAllowPrivate = list.data?.mayAllowPrivate ?? false;

  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <Webhook className="h-5 w-5 text-brand" aria-hidden /> Webhooks
        </CardTitle>
        <CardDescription>
          Reelsmith POSTs a signed JSON event to your URL when a video is ready, failed or was published (header{" "}
          <code className="text-slate-200">Reelsmith-Signature</code>: HMAC-SHA256 over the timestamp and the body). Failed deliveries are retried
          with back-off for about 40 minutes.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <form
          className="grid gap-3"
          onSubmit={(e) => {
            e.preventDefault();
            add.mutate();
          }}
        >
          <div className="grid gap-1.5">
            <Label htmlFor="webhook-url">Endpoint URL</Label>
            <Input id="webhook-url" type="url" value={url} maxLength={2000} placeholder="https://example.com/reelsmith" onChange={(e) => setUrl(e.target.value)} />
          </div>
          <fieldset className="flex flex-wrap gap-4 text-sm">
            <legend className="sr-only">Events</legend>
            {WEBHOOK_EVENTS.map((event) => (
              <label key={event} className="flex items-center gap-2">
                <input type="checkbox" checked={events.includes(event)} onChange={(e) => setEvents(e.target.checked ? [...events, event] : events.filter((x) => x !== event))} />
                <code>{event}</code>
              </label>
            ))}
          </fieldset>
          {mayAllowPrivate ? (
            <label className="flex items-center gap-2 text-sm text-slate-300">
              <input type="checkbox" checked={allowPrivate} onChange={(e) => setAllowPrivate(e.target.checked)} />
              Allow private and loopback addresses (a receiver on your own network)
            </label>
          ) : null}
          <Button type="submit" className="justify-self-start" disabled={!url.trim() || events.length === 0 || add.isPending}>
            {add.isPending ? "Adding..." : "Add Endpoint"}
          </Button>
        </form>
        {secret ? (
          <div role="status" className="grid gap-2 rounded-md border border-emerald-700 bg-emerald-950/40 p-3 text-sm">
            <p className="text-emerald-200">Copy the signing secret now: it is shown this once. Your receiver checks each event with it.</p>
            <code aria-label="Webhook signing secret" className="break-all rounded bg-slate-950 p-2 font-mono text-xs">
              {secret}
            </code>
            <Button type="button" size="sm" variant="outline" className="justify-self-start" onClick={() => setSecret(null)}>
              Done
            </Button>
          </div>
        ) : null}
        {list.isError ? <p className="text-sm text-red-400">{serverMessage(list.error)}</p> : null}
        {endpoints.length === 0 && !list.isLoading ? <p className="text-sm text-slate-400">No endpoints yet.</p> : null}
        <ul className="grid gap-3" aria-label="Webhook endpoints">
          {endpoints.map((endpoint) => (
            <li key={endpoint.id} className="grid gap-2 rounded-md border border-slate-800 bg-slate-950 p-3 text-sm">
              <div className="flex flex-wrap items-center justify-between gap-2">
                <span className="break-all font-mono text-xs text-slate-100">{endpoint.url}</span>
                <Button type="button" size="sm" variant="outline" onClick={() => remove.mutate(endpoint.id)} aria-label={`Remove ${endpoint.url}`}>
                  Remove
                </Button>
              </div>
              <span className="text-xs text-slate-400">{endpoint.events.join(", ")}</span>
              {endpoint.deliveries.length ? (
                <table className="w-full text-xs" aria-label={`Deliveries to ${endpoint.url}`}>
                  <thead className="text-left text-slate-400">
                    <tr>
                      <th className="font-normal">Event</th>
                      <th className="font-normal">Status</th>
                      <th className="font-normal">Attempts</th>
                      <th className="font-normal">When</th>
                    </tr>
                  </thead>
                  <tbody>
                    {endpoint.deliveries.map((d) => (
                      <tr key={d.id} title={d.error ?? undefined}>
                        <td>
                          <code>{d.event}</code>
                        </td>
                        <td className={STATUS_CLASS[d.status] ?? ""}>
                          {d.status}
                          {d.responseStatus ? ` (${d.responseStatus})` : ""}
                          {d.status !== "delivered" && d.error ? `: ${d.error}` : ""}
                        </td>
                        <td>{d.attempts}</td>
                        <td>{new Date(d.createdAt).toLocaleString()}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              ) : (
                <span className="text-xs text-slate-500">No deliveries yet.</span>
              )}
            </li>
          ))}
        </ul>
      </CardContent>
    </Card>
  );
}
