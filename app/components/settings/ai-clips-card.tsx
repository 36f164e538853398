// Settings' AI clips card (issue 50): the Runway key, the monthly AI clip budget and the cap per video. A request
// over either is refused, with the figures, before any service is called; the prices are the table's, dated.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Film } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { toast } from "~/hooks/use-toast";
import { apiGet, apiRequest, serverMessage } from "~/lib/api-client";
import { CLIP_PRICES, dollars } from "~/lib/clip-prices";

type ClipSettingsView = { monthlyBudgetCents: number | null; videoCapCents: number | null; hasRunwayKey: boolean };
const KEY = ["ai-clip-settings"];
const asDollars = (cents: number | null) => (cents === null ? "" : (cents / 100).toFixed(2));
const parse = (text: string) => (text.trim() === "" ? null : Number(text));

export function AiClipsCard() {
  const queryClient = useQueryClient();
  const settings = useQuery({ queryKey: KEY, queryFn: () => apiGet<ClipSettingsView>("/api/ai-clip-settings") });
  const [monthly, setMonthly] = useState("");
  const [perVideo, setPerVideo] = useState("");
  const [runwayKey, setRunwayKey] = useState("");
  // the saved figures fill the fields once, when they arrive (never over what the creator is typing)
  const filled = useRef(false);
  useEffect(() => {
    if (!settings.data || filled.current) return;
    filled.current = true;
    setMonthly(asDollars(settings.data.monthlyBudgetCents));
    setPerVideo(asDollars(settings.data.videoCapCents));
  }, [settings.data]);
  const loading = !settings.data;
  const save = useMutation({
    mutationFn: () =>
      apiRequest<ClipSettingsView>("PUT", "/api/ai-clip-settings", {
        monthlyBudgetDollars: parse(monthly),
        videoCapDollars: parse(perVideo),
        ...(runwayKey.trim() ? { runwayApiKey: runwayKey.trim() } : {}),
      }),
    onSuccess: (data) => {
      queryClient.setQueryData(KEY, data);
      setMonthly(asDollars(data.monthlyBudgetCents));
      setPerVideo(asDollars(data.videoCapCents));
      setRunwayKey("");
      toast({ title: "AI clip settings saved", description: data.monthlyBudgetCents === null ? "No monthly limit." : `Monthly budget: ${dollars(data.monthlyBudgetCents)}.` });
    },
    onError: (error) => toast({ title: "Save failed", description: serverMessage(error), variant: "destructive" }),
  });
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <Film className="h-5 w-5 text-brand" aria-hidden /> AI Clips
        </CardTitle>
        <CardDescription>
          Animate scenes with Veo (your Gemini key) or Runway. Every request shows its cost first, and one that would pass your monthly budget or the cap per
          video is refused before anything is spent.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <form
          className="grid gap-4 sm:grid-cols-3"
          onSubmit={(e) => {
            e.preventDefault();
            save.mutate();
          }}
        >
          <div className="grid gap-2">
            <Label htmlFor="clip-monthly-budget">Monthly budget (US$)</Label>
            <Input id="clip-monthly-budget" disabled={loading} inputMode="decimal" placeholder="No limit" value={monthly} onChange={(e) => setMonthly(e.target.value)} />
          </div>
          <div className="grid gap-2">
            <Label htmlFor="clip-video-cap">Cap per video (US$)</Label>
            <Input id="clip-video-cap" disabled={loading} inputMode="decimal" placeholder="No cap" value={perVideo} onChange={(e) => setPerVideo(e.target.value)} />
          </div>
          <div className="grid gap-2">
            <Label htmlFor="clip-runway-key">Runway API key</Label>
            <Input
              id="clip-runway-key" disabled={loading}
              type="password"
              autoComplete="off"
              placeholder={settings.data?.hasRunwayKey ? "Saved (type to replace)" : "key_..."}
              value={runwayKey}
              onChange={(e) => setRunwayKey(e.target.value)}
            />
          </div>
          <div className="sm:col-span-3">
            <Button type="submit" disabled={save.isPending || !settings.data}>
              {save.isPending ? "Saving..." : "Save AI clip settings"}
            </Button>
          </div>
        </form>
        <table className="w-full text-left text-sm">
          <caption className="mb-1 text-left text-xs text-slate-400">Prices per second of video</caption>
          <thead className="text-xs text-slate-400">
            <tr>
              <th className="py-1 font-medium">Model</th>
              <th className="py-1 font-medium">Per second</th>
              <th className="py-1 font-medium">Clip lengths</th>
              <th className="py-1 font-medium">As of</th>
            </tr>
          </thead>
          <tbody>
            {CLIP_PRICES.map((p) => (
              <tr key={p.model} className="border-t border-slate-800">
                <td className="py-1">{p.label}</td>
                <td className="py-1">{dollars(p.centsPerSecond)}</td>
                <td className="py-1">{p.durations.join(", ")} s</td>
                <td className="py-1">
                  <a className="text-violet-300 underline" href={p.source.split(" ")[0]} target="_blank" rel="noreferrer">
                    {p.asOf}
                  </a>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </CardContent>
    </Card>
  );
}
