import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useNavigate } from "@remix-run/react";
import { useMutation, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { problemText, type ChannelView } from "~/components/channels/channel-api";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { toast } from "~/hooks/use-toast";
import { apiGet, apiRequest } from "~/lib/api-client";
import { WEEKDAYS } from "~/lib/channel";
import { pageMeta } from "~/lib/meta";
import { requireUser } from "~/server/auth.server";

// /channels (issue 52): the creator's channels, each with its schedule and queue at a glance, and a new channel.
export const meta: MetaFunction = () => pageMeta("Channels · Reelsmith");

export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  return null;
}

export default function Channels() {
  const navigate = useNavigate();
  const channels = useQuery({ queryKey: ["channels"], queryFn: () => apiGet<{ channels: ChannelView[] }>("/api/v1/channels") });
  const [name, setName] = useState("");
  const [timeZone, setTimeZone] = useState(() => (typeof Intl !== "undefined" ? Intl.DateTimeFormat().resolvedOptions().timeZone : "UTC"));
  const create = useMutation({
    mutationFn: () => apiRequest<ChannelView>("POST", "/api/v1/channels", { name, timeZone, schedule: [{ day: 2, time: "18:00" }, { day: 4, time: "18:00" }, { day: 6, time: "10:00" }] }),
    onSuccess: (channel) => navigate(`/channels/${channel.id}`),
    onError: (error) => toast({ title: "Channel Not Made", description: problemText(error), variant: "destructive" }),
  });
  const list = channels.data?.channels ?? [];
  return (
    <main className="mx-auto grid max-w-4xl grid-cols-1 gap-6 px-4 py-10">
      <div>
        <h1 className="text-3xl font-bold">Channels</h1>
        <p className="mt-2 text-slate-400">A channel runs itself: its brand kit styles every video, its queue of ideas fills its weekly slots, and each video is made ahead and posted on time.</p>
      </div>
      <Card>
        <CardHeader>
          <CardTitle>New channel</CardTitle>
          <CardDescription>It starts with three slots a week (Tuesday and Thursday 18:00, Saturday 10:00); change them and the kit on its page.</CardDescription>
        </CardHeader>
        <CardContent>
          <form
            className="grid gap-3 sm:grid-cols-[1fr_14rem_auto] sm:items-end"
            onSubmit={(e) => {
              e.preventDefault();
              create.mutate();
            }}
          >
            <div className="grid gap-1.5">
              <Label htmlFor="channel-name">Name</Label>
              <Input id="channel-name" value={name} maxLength={80} onChange={(e) => setName(e.target.value)} placeholder="Ocean Facts Daily" />
            </div>
            <div className="grid gap-1.5">
              <Label htmlFor="channel-tz">Time zone</Label>
              <Input id="channel-tz" value={timeZone} maxLength={64} onChange={(e) => setTimeZone(e.target.value)} />
            </div>
            <Button type="submit" disabled={!name.trim() || create.isPending}>
              {create.isPending ? "Making..." : "Make channel"}
            </Button>
          </form>
        </CardContent>
      </Card>
      {channels.isLoading ? <p className="text-slate-400">Loading channels...</p> : null}
      {!channels.isLoading && list.length === 0 ? <p className="text-slate-400">No channels yet: make your first one above.</p> : null}
      <ul className="grid gap-4 sm:grid-cols-2">
        {list.map((c) => (
          <li key={c.id}>
            <Link to={`/channels/${c.id}`} className="block rounded-lg border border-slate-800 bg-slate-900/60 p-4 hover:border-brand">
              <p className="text-lg font-semibold">{c.name}</p>
              <p className="mt-1 text-sm text-slate-400">
                {c.schedule.length ? c.schedule.map((s) => `${WEEKDAYS[s.day - 1]!.slice(0, 3)} ${s.time}`).join(" · ") : "No slots yet"} ({c.timeZone})
              </p>
              <p className="mt-2 text-sm text-slate-300">
                {c.counts.queued} queued · {c.counts.making} being made · {c.counts.ready} to approve · {c.counts.approved} approved · {c.counts.published} published
              </p>
              <p className="mt-1 text-xs text-slate-400">{c.accounts.length ? c.accounts.map((a) => a.label).join(", ") : "No platform account yet"}{c.paused ? " · paused" : ""}</p>
            </Link>
          </li>
        ))}
      </ul>
    </main>
  );
}
