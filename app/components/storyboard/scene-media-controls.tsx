// The creator's own media on a scene card: upload an image or a short clip, pick one of the project's earlier
// images, or go back to the generated image. The server checks, cleans and scales every file.
import { useQuery } from "@tanstack/react-query";
import { Images, Loader2, Undo2, Upload } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { Button } from "~/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "~/components/ui/dialog";
import { toast } from "~/hooks/use-toast";
import { apiGet, apiRequest, serverMessage } from "~/lib/api-client";
import type { StoryboardCellView } from "~/server/storyboard.server";
import { mediaVariantUrl } from "~/lib/media-variants";

type ProjectImage = { id: string; url: string; width: number | null; height: number | null };

export const SCENE_MEDIA_ACCEPT = "image/png,image/jpeg,image/webp,image/gif,image/avif,video/mp4,video/quicktime,video/webm";

export const IMAGE_SOURCE_LABEL: Record<StoryboardCellView["imageSource"], string> = {
  generated: "Generated",
  upload: "Your upload",
  project_image: "Earlier image",
};

type ClipProgress = { progress: { phase: "converting"; percent: number | null } | null };

/** While a clip uploads, what the worker says about converting it: null until it starts, then a percentage. */
function useClipConversion(cellIndex: number, uploading: boolean) {
  const [percent, setPercent] = useState<number | null | undefined>(undefined);
  useEffect(() => {
    if (!uploading) {
      setPercent(undefined);
      return;
    }
    let stopped = false;
    const poll = async () => {
      try {
        const progress = (await apiGet<ClipProgress>(`/api/scene-media?clipProgress=${cellIndex}`))?.progress;
        if (!stopped && progress) setPercent(progress.percent);
      } catch {
        // the next poll tries again; the upload's own answer says how it ended
      }
    };
    const timer = setInterval(() => void poll(), 1000);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [cellIndex, uploading]);
  return percent;
}

export function SceneMediaControls({ cell, onChanged }: { cell: StoryboardCellView; onChanged: () => void }) {
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState<null | "upload" | "pick" | "undo">(null);
  const [picking, setPicking] = useState(false);
  const [uploadingClip, setUploadingClip] = useState(false);
  const converting = useClipConversion(cell.cellIndex, uploadingClip);
  const scene = `Scene ${cell.cellIndex + 1}`;

  const run = async (kind: "upload" | "pick" | "undo", work: () => Promise<unknown>, failure: string) => {
    setBusy(kind);
    try {
      await work();
      onChanged();
      return true;
    } catch (error) {
      toast({ title: failure, description: serverMessage(error), variant: "destructive" });
      return false;
    } finally {
      setBusy(null);
    }
  };

  const upload = (file: File) => {
    const form = new FormData();
    form.set("cellIndex", String(cell.cellIndex));
    form.set("file", file);
    const clip = file.type.startsWith("video/");
    setUploadingClip(clip);
    void run("upload", () => apiRequest("POST", "/api/scene-media", form), clip ? "Clip upload failed" : "Upload failed").finally(() => setUploadingClip(false));
  };
  const uploadLabel =
    busy !== "upload" ? "Upload Image or Clip" : converting === undefined ? "Uploading..." : `Converting clip...${converting === null ? "" : ` ${converting}%`}`;

  return (
    <div className="flex flex-wrap gap-2">
      <input
        ref={input}
        type="file"
        accept={SCENE_MEDIA_ACCEPT}
        className="hidden"
        aria-label={`${scene}: upload an image or clip`}
        onChange={(e) => {
          const file = e.target.files?.[0];
          e.target.value = "";
          if (file) upload(file);
        }}
      />
      <Button size="sm" variant="outline" disabled={busy !== null} onClick={() => input.current?.click()}>
        {busy === "upload" ? <Loader2 className="h-4 w-4 animate-spin" aria-hidden /> : <Upload className="h-4 w-4" aria-hidden />}
        {uploadLabel}
      </Button>
      {busy === "upload" && converting !== undefined ? (
        <p role="status" className="w-full text-xs text-slate-400">
          The clip is being converted to the video&apos;s format (muted, no metadata). You can keep working meanwhile.
        </p>
      ) : null}
      <Button size="sm" variant="outline" disabled={busy !== null} onClick={() => setPicking(true)}>
        <Images className="h-4 w-4" aria-hidden /> Earlier Images
      </Button>
      {cell.imageSource !== "generated" ? (
        <Button size="sm" variant="outline" disabled={busy !== null} onClick={() => void run("undo", () => apiRequest("DELETE", "/api/scene-media", { cellIndex: cell.cellIndex }), "Undo failed")}>
          {busy === "undo" ? <Loader2 className="h-4 w-4 animate-spin" aria-hidden /> : <Undo2 className="h-4 w-4" aria-hidden />}
          Back to Generated
        </Button>
      ) : null}
      <Dialog open={picking} onOpenChange={setPicking}>
        <DialogContent className="max-w-3xl">
          <DialogHeader>
            <DialogTitle>Earlier images for {scene}</DialogTitle>
            <DialogDescription>Images this project already has: generated scenes and your uploads.</DialogDescription>
          </DialogHeader>
          {picking ? (
            <ProjectImagePicker
              currentUrl={cell.imageUrl}
              disabled={busy !== null}
              onPick={async (image) => {
                const ok = await run("pick", () => apiRequest("PUT", "/api/scene-media", { cellIndex: cell.cellIndex, mediaFileId: image.id }), "Could not use that image");
                if (ok) setPicking(false);
              }}
            />
          ) : null}
        </DialogContent>
      </Dialog>
    </div>
  );
}

function ProjectImagePicker(props: { currentUrl: string | null; disabled: boolean; onPick: (image: ProjectImage) => void }) {
  const images = useQuery({ queryKey: ["scene-media"], queryFn: () => apiGet<{ images: ProjectImage[] }>("/api/scene-media"), staleTime: 0 });
  if (images.isLoading) return <p role="status" className="text-sm text-slate-400">Loading images...</p>;
  const list = images.data?.images ?? [];
  if (!list.length) return <p className="text-sm text-slate-400">This project has no images yet.</p>;
  return (
    <ul className="grid max-h-[60vh] grid-cols-3 gap-3 overflow-y-auto sm:grid-cols-4">
      {list.map((image, i) => (
        <li key={image.id}>
          <button
            type="button"
            disabled={props.disabled || image.url === props.currentUrl}
            onClick={() => props.onPick(image)}
            className="block w-full overflow-hidden rounded-lg border border-slate-700 hover:border-brand disabled:opacity-40"
            aria-label={`Use earlier image ${i + 1}`}
          >
            <img src={mediaVariantUrl(image.url, 320)} alt="" loading="lazy" className="aspect-square w-full object-cover" />
          </button>
        </li>
      ))}
    </ul>
  );
}
