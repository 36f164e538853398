// Settings > API tokens (issue 32, decision 160): make a token (name, expiry, read-only or full), see its secret
// once, list tokens with their last use, revoke one at once.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { KeyRound } from "lucide-react";
import { useState } from "react";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { toast } from "~/hooks/use-toast";
import { apiGet, apiRequest, serverMessage } from "~/lib/api-client";
import { API_TOKEN_EXPIRY_DAYS, API_TOKEN_NAME_MAX, type ApiTokenScope, type ApiTokenView } from "~/lib/api-tokens";

export const API_TOKENS_KEY = ["api-tokens"] as const;

const selectClass = "h-10 w-full rounded-md border border-slate-700 bg-slate-950 px-3 text-sm text-slate-100 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand";

function when(iso: string | null, never: string): string {
  return iso ? new Date(iso).toLocaleString() : never;
}

export function ApiTokensCard() {
  const queryClient = useQueryClient();
  const tokens = useQuery({ queryKey: API_TOKENS_KEY, queryFn: () => apiGet<{ tokens: ApiTokenView[] }>("/api/api-tokens") });
  const [name, setName] = useState("");
  const [scope, setScope] = useState<ApiTokenScope>("full");
  const [expiry, setExpiry] = useState<string>("90");
  const [secret, setSecret] = useState<{ name: string; token: string } | null>(null);

  const create = useMutation({
    mutationFn: () =>
      apiRequest<{ token: string; apiToken: ApiTokenView }>("POST", "/api/api-tokens", { name, scope, expiresInDays: expiry === "never" ? null : Number(expiry) }),
    onSuccess: (made) => {
      setSecret({ name: made.apiToken.name, token: made.token });
      setName("");
      void queryClient.invalidateQueries({ queryKey: API_TOKENS_KEY });
    },
    onError: (error) => toast({ title: "Token Not Made", description: serverMessage(error), variant: "destructive" }),
  });
  const revoke = useMutation({
    mutationFn: (id: string) => apiRequest("DELETE", `/api/api-tokens/${encodeURIComponent(id)}`),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: API_TOKENS_KEY });
      toast({ title: "Token Revoked", description: "Programs using it are refused from now on." });
    },
    onError: (error) => toast({ title: "Error", description: serverMessage(error), variant: "destructive" }),
  });
  const list = tokens.data?.tokens ?? [];

  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <KeyRound className="h-5 w-5 text-brand" aria-hidden /> API Tokens
        </CardTitle>
        <CardDescription>
          Let a program (a script, n8n, an AI agent through MCP) make videos as you, with your plan&apos;s limits: it sends{" "}
          <code className="text-slate-200">Authorization: Bearer &lt;token&gt;</code> to <code className="text-slate-200">/api/v1</code> or{" "}
          <code className="text-slate-200">/mcp</code>. The API is described at{" "}
          <a className="text-violet-300 underline" href="/api/v1/docs">
            /api/v1/docs
          </a>
          .
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <form
          className="grid gap-3 sm:grid-cols-[2fr_1fr_1fr_auto] sm:items-end"
          onSubmit={(e) => {
            e.preventDefault();
            create.mutate();
          }}
        >
          <div className="grid gap-1.5">
            <Label htmlFor="api-token-name">Token name</Label>
            <Input id="api-token-name" value={name} maxLength={API_TOKEN_NAME_MAX} placeholder="e.g. n8n daily Short" onChange={(e) => setName(e.target.value)} />
          </div>
          <div className="grid gap-1.5">
            <Label htmlFor="api-token-scope">Access</Label>
            <select id="api-token-scope" className={selectClass} value={scope} onChange={(e) => setScope(e.target.value as ApiTokenScope)}>
              <option value="full">Full (make, cancel, delete)</option>
              <option value="read">Read-only</option>
            </select>
          </div>
          <div className="grid gap-1.5">
            <Label htmlFor="api-token-expiry">Expires</Label>
            <select id="api-token-expiry" className={selectClass} value={expiry} onChange={(e) => setExpiry(e.target.value)}>
              {API_TOKEN_EXPIRY_DAYS.map((d) => (
                <option key={d} value={String(d)}>
                  in {d} days
                </option>
              ))}
              <option value="never">never</option>
            </select>
          </div>
          <Button type="submit" disabled={!name.trim() || create.isPending}>
            {create.isPending ? "Making..." : "Make Token"}
          </Button>
        </form>
        {secret ? (
          <div role="status" className="grid gap-2 rounded-md border border-emerald-700 bg-emerald-950/40 p-3 text-sm">
            <p className="text-emerald-200">
              Copy the token <strong>{secret.name}</strong> now: it is shown this once and cannot be read again.
            </p>
            <code aria-label="New API token" className="break-all rounded bg-slate-950 p-2 font-mono text-xs text-slate-100">
              {secret.token}
            </code>
            <div className="flex gap-2">
              <Button type="button" size="sm" variant="outline" onClick={() => void navigator.clipboard?.writeText(secret.token)}>
                Copy
              </Button>
              <Button type="button" size="sm" variant="outline" onClick={() => setSecret(null)}>
                Done
              </Button>
            </div>
          </div>
        ) : null}
        {tokens.isLoading ? (
          <p className="text-sm text-slate-400">Loading tokens...</p>
        ) : tokens.isError ? (
          <p className="text-sm text-red-400">{serverMessage(tokens.error)}</p>
        ) : list.length === 0 ? (
          <p className="text-sm text-slate-400">No tokens yet.</p>
        ) : (
          <ul className="grid gap-2" aria-label="API tokens">
            {list.map((t) => (
              <li key={t.id} className="flex flex-wrap items-center justify-between gap-2 rounded-md border border-slate-800 bg-slate-950 p-3 text-sm">
                <div className="grid gap-0.5">
                  <span className="font-medium text-slate-100">
                    {t.name} <span className="font-mono text-xs text-slate-400">{t.prefix}…</span>{" "}
                    <span className="rounded bg-slate-800 px-1.5 py-0.5 text-xs text-slate-300">{t.scope === "full" ? "full" : "read-only"}</span>
                    {t.expired ? <span className="ml-1 rounded bg-red-950 px-1.5 py-0.5 text-xs text-red-300">expired</span> : null}
                  </span>
                  <span className="text-xs text-slate-400">
                    Last used: {when(t.lastUsedAt, "never")} · Expires: {when(t.expiresAt, "never")}
                  </span>
                </div>
                <Button type="button" size="sm" variant="outline" disabled={revoke.isPending} onClick={() => revoke.mutate(t.id)} aria-label={`Revoke ${t.name}`}>
                  Revoke
                </Button>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
