import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Stamp } from "lucide-react";
import { useRef } from "react";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Label } from "~/components/ui/label";
import { toast } from "~/hooks/use-toast";
import { serverMessage } from "~/lib/api-client";
import { CONFIG_KEY, uploadImage } from "./queries";
import type { PublicConfig } from "./types";

export function WatermarkCard({ config }: { config: PublicConfig | null | undefined }) {
  const input = useRef<HTMLInputElement>(null);
  const queryClient = useQueryClient();
  const upload = useMutation({
    mutationFn: (file: File) => uploadImage<{ watermarkImageUrl: string }>("watermark", file),
    onSuccess: ({ watermarkImageUrl }) => {
      queryClient.setQueryData<PublicConfig | null>(CONFIG_KEY, (c) => (c ? { ...c, watermarkImageUrl } : c));
      toast({ title: "Watermark Uploaded", description: "It will appear bottom-right on your generated thumbnails." });
    },
    onError: (error) => toast({ title: "Upload failed", description: serverMessage(error), variant: "destructive" }),
    onSettled: () => {
      if (input.current) input.current.value = "";
    },
  });

  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <Stamp className="h-5 w-5 text-brand" aria-hidden /> Watermark Settings
        </CardTitle>
        <CardDescription>
          Thumbnail Watermark: your image appears in the bottom-right corner of every thumbnail you generate on the Thumbnail and Upload pages. It is
          not added to the video itself.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <div className="grid gap-2">
          <Label htmlFor="watermark-file">Watermark image</Label>
          <input
            ref={input}
            id="watermark-file"
            type="file"
            accept="image/*"
            disabled={upload.isPending}
            className="text-sm file:mr-3 file:rounded-md file:border-0 file:bg-slate-800 file:px-3 file:py-2 file:text-slate-100"
            onChange={(e) => {
              const file = e.target.files?.[0];
              if (file) upload.mutate(file);
            }}
          />
          {upload.isPending ? <p className="text-sm text-slate-400">Uploading...</p> : null}
        </div>
        {config?.watermarkImageUrl ? (
          <div className="flex items-center gap-4">
            <div className="relative h-24 w-40 rounded-md border border-slate-700 bg-slate-800">
              <img src={config.watermarkImageUrl} alt="Watermark preview" className="absolute bottom-1 right-1 max-h-10 max-w-16 object-contain" />
            </div>
            <Button variant="outline" size="sm" onClick={() => input.current?.click()}>
              Replace
            </Button>
          </div>
        ) : (
          <p className="text-sm text-slate-400">No watermark yet.</p>
        )}
      </CardContent>
    </Card>
  );
}
