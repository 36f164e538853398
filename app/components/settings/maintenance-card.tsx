import { useMutation } from "@tanstack/react-query";
import { Wrench } from "lucide-react";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { toast } from "~/hooks/use-toast";
import { CLEANUP_PROJECT_ID } from "~/lib/constants";
import { cleanupToast } from "./cleanup-messages";
import type { CleanupResult } from "./types";

async function cleanUp(projectId: string): Promise<CleanupResult> {
  const response = await fetch(`/api/projects/${encodeURIComponent(projectId)}/cleanup-media`, {
    method: "POST",
    credentials: "include",
    headers: { "Content-Type": "application/json" },
  });
  if (!response.ok) throw new Error(`HTTP error! status: ${response.status}`);
  const body = (await response.json()) as { result: CleanupResult };
  return body.result;
}

/** The spec sends the fixed project id 2; the server reads it as "my current project". */
export function MaintenanceCard({ projectId }: { projectId?: string | null }) {
  const cleanup = useMutation({
    mutationFn: () => cleanUp(projectId ?? String(CLEANUP_PROJECT_ID)),
    retry: false,
    onSuccess: (result) => toast(cleanupToast(result)),
    onError: (error) =>
      toast({ title: "Cleanup Failed", description: (error as Error).message || "Failed to clean up media files", variant: "destructive" }),
  });

  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <Wrench className="h-5 w-5 text-brand" aria-hidden /> Project Maintenance
        </CardTitle>
        <CardDescription>
          Removes voiceover and image files of your current project that no scene uses any more (left behind when you regenerate a scene).
        </CardDescription>
      </CardHeader>
      <CardContent>
        <Button variant="outline" disabled={cleanup.isPending} onClick={() => cleanup.mutate()}>
          {cleanup.isPending ? "Cleaning Up..." : "Clean Up Media Files"}
        </Button>
      </CardContent>
    </Card>
  );
}
