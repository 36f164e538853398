import { useQuery } from "@tanstack/react-query";
import { ImageIcon } from "lucide-react";
import { useEffect, useState } from "react";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Label } from "~/components/ui/label";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "~/components/ui/select";
import { apiGet, serverMessage } from "~/lib/api-client";
import { defaultModelText, flattenModels, modelLabel, modelsCachedLabel } from "./model-options";
import { useSaveConfig } from "./queries";
import type { ModelsResponse, PublicConfig } from "./types";
import { OfflineBadge } from "./voice-card";

export function ImageModelCard({ config }: { config: PublicConfig | null | undefined }) {
  const hasKey = !!config && config.leonardoApiKeyLength !== 0;
  // With a key, the (paid, slow) model list is loaded on request; without one the offline styles load at once.
  const [loadRequested, setLoadRequested] = useState(false);
  const models = useQuery({
    queryKey: ["image-models", hasKey ? "cloud" : "offline"],
    queryFn: () => apiGet<ModelsResponse>("/api/leonardo/models"),
    enabled: !!config && (!hasKey || loadRequested),
  });
  const [modelId, setModelId] = useState("");
  const save = useSaveConfig({ title: "Model Settings Saved", description: "New scene images use this model." });

  useEffect(() => {
    if (config?.leonardoModelId) setModelId(config.leonardoModelId);
  }, [config?.leonardoModelId]);

  const list = flattenModels(models.data);
  const loaded = models.isSuccess;
  const offline = models.data?.source === "offline";

  function loadOrRefresh() {
    if (!loadRequested) setLoadRequested(true);
    else void models.refetch();
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <ImageIcon className="h-5 w-5 text-brand" aria-hidden /> Image Model Settings
          {offline ? <OfflineBadge>Offline styles</OfflineBadge> : null}
        </CardTitle>
        <CardDescription>{defaultModelText(hasKey)}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <div className="grid gap-2">
          <Label htmlFor="model-select" className="flex items-center gap-2">
            Image model
            {loaded ? <span className="text-xs font-normal text-slate-400">{modelsCachedLabel(list.length)}</span> : null}
          </Label>
          <div className="flex gap-2">
            <Select value={modelId} onValueChange={setModelId}>
              <SelectTrigger id="model-select" aria-label="Image model">
                <SelectValue placeholder={loaded && list.length === 0 ? "No models available" : "Select Model"} />
              </SelectTrigger>
              <SelectContent>
                {list.map((m) => (
                  <SelectItem key={m.id} value={m.id}>
                    {modelLabel(m)}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
            {hasKey ? (
              <Button variant="outline" type="button" onClick={loadOrRefresh} disabled={models.isFetching} className="shrink-0">
                {models.isFetching ? "Loading..." : loaded ? `Refresh models (${list.length})` : "Load models"}
              </Button>
            ) : null}
          </div>
          {models.isError ? <p className="text-sm text-red-400">{serverMessage(models.error)}</p> : null}
          {offline ? (
            <p className="text-xs text-amber-300">No Leonardo API key is saved: scene images are drawn offline in these styles.</p>
          ) : null}
        </div>
        <Button className="justify-self-start" disabled={!modelId || save.isPending} onClick={() => save.mutate({ leonardoModelId: modelId })}>
          {save.isPending ? "Saving..." : "Save Model Settings"}
        </Button>
      </CardContent>
    </Card>
  );
}
