// The Thumbnail Generator: pick a scene image, enter the title text, choose one of
// the nine fonts and a size (40-160 px, steps of 4), generate, preview, download, approve.
//
// Props: `{ projectId?: string }`. With a projectId it works on that project (the caller's own; used by
// /projects/{id}); without one, on the signed-in user's current project (used by /thumbnail and /upload).
// It loads everything it needs itself (GET /api/thumbnails), so it can be dropped on any signed-in page.
// Calls: POST /api/generate-thumbnail, POST /api/approve-thumbnail; downloads via /api/media/<id>?download=1.
import "@fontsource/bebas-neue/latin-400.css";
import "@fontsource/anton/latin-400.css";
import "@fontsource/oswald/latin-700.css";
import "@fontsource/poppins/latin-800.css";
import "@fontsource/bangers/latin-400.css";
import "@fontsource/luckiest-guy/latin-400.css";
import "@fontsource/russo-one/latin-400.css";
import "@fontsource/montserrat/latin-800.css";
import "@fontsource/lilita-one/latin-400.css";
import { Link } from "@remix-run/react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { PREFLIGHT_KEY } from "~/components/upload/upload-queries";
import { CheckCircle2, Download, ImageIcon, Loader2, Sparkles } from "lucide-react";
import { useEffect, useState } from "react";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "~/components/ui/select";
import { Slider } from "~/components/ui/slider";
import { toast } from "~/hooks/use-toast";
import { apiGet, apiRequest, serverMessage } from "~/lib/api-client";
import { THUMBNAIL } from "~/lib/constants";
import { THUMBNAIL_FONT_FACES, THUMBNAIL_FONTS, THUMBNAIL_TITLE_MAX_CHARS, thumbnailFontFor, type ThumbnailView, type ThumbnailWorkspace } from "~/lib/thumbnail";
import { cn } from "~/lib/utils";

const fontStyle = (value: string) => {
  const face = THUMBNAIL_FONT_FACES[value];
  return face ? { fontFamily: `'${face.cssFamily}', sans-serif`, fontWeight: face.weight } : undefined;
};

export const thumbnailWorkspaceKey = (projectId?: string) => ["thumbnail-workspace", projectId ?? "current"] as const;

/** A file name for the download: the title, lowercased, with anything but letters and digits as underscores. */
export function thumbnailFileName(title: string): string {
  const base = title.toLowerCase().replace(/[^a-z0-9]+/g, "_").replace(/^_+|_+$/g, "");
  return `${base || "thumbnail"}_thumbnail.png`;
}

type GenerateResponse = { success: boolean; thumbnailUrl: string; fontSize: number; error: string | null };

export function ThumbnailGenerator({ projectId }: { projectId?: string } = {}) {
  const queryClient = useQueryClient();
  const key = thumbnailWorkspaceKey(projectId);
  const workspace = useQuery({
    queryKey: key,
    queryFn: () => apiGet<ThumbnailWorkspace>(`/api/thumbnails${projectId ? `?projectId=${encodeURIComponent(projectId)}` : ""}`),
  });
  const data = workspace.data;

  const [imageUrl, setImageUrl] = useState<string | null>(null);
  const [title, setTitle] = useState("");
  const [font, setFont] = useState<string>(THUMBNAIL_FONTS[0]!.value);
  const [fontSize, setFontSize] = useState<number>(THUMBNAIL.defaultFontSize);
  const [current, setCurrent] = useState<{ thumbnailUrl: string; title: string; fontSize: number; approved: boolean } | null>(null);

  // the project's latest thumbnail (its title, font and size), else the creator's defaults, once loaded
  const loadedFor = data?.projectId ?? null;
  useEffect(() => {
    if (!data) return;
    const latest: ThumbnailView | undefined = data.thumbnails.find((t) => t.approved) ?? data.thumbnails[0];
    setTitle((t) => t || latest?.title || data.projectTitle || "");
    setFont(latest ? thumbnailFontFor(latest.fontFamily).value : data.defaultFont);
    setFontSize(latest?.fontSize ?? data.defaultFontSize);
    setImageUrl((u) => u ?? data.images[0]?.imageUrl ?? null);
    setCurrent((c) => c ?? (latest ? { thumbnailUrl: latest.thumbnailUrl, title: latest.title, fontSize: latest.fontSize, approved: latest.approved } : null));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [loadedFor]);

  const images = data?.images ?? [];
  const selected = images.find((i) => i.imageUrl === imageUrl) ?? null;
  const trimmedTitle = title.trim();
  const canGenerate = Boolean(trimmedTitle) && Boolean(selected);

  const generate = useMutation({
    mutationFn: () => {
      const family = THUMBNAIL_FONTS.find((f) => f.value === font)!.family;
      return apiRequest<GenerateResponse>("POST", "/api/generate-thumbnail", {
        imageUrl: selected!.imageUrl,
        title: trimmedTitle,
        cellIndex: selected!.cellIndex,
        fontFamily: family,
        fontValue: font,
        fontSize,
        ...(projectId ? { projectId } : {}),
      });
    },
    onSuccess: (result) => {
      // the choice becomes the creator's default (settings' preferred font and size); failing to save it is harmless
      const family = THUMBNAIL_FONTS.find((f) => f.value === font)!.family;
      apiRequest("PUT", "/api/config", { preferredThumbnailFont: family, preferredThumbnailFontSize: fontSize }).catch((e) =>
        console.warn("could not save the thumbnail font preference", e),
      );
      setCurrent({ thumbnailUrl: result.thumbnailUrl, title: trimmedTitle, fontSize: result.fontSize, approved: false });
      toast({
        title: "Thumbnail generated",
        description:
          result.fontSize < fontSize
            ? `The title was set at ${result.fontSize}px so that it fits inside the frame.`
            : "Check the preview, then download or approve it.",
      });
      queryClient.invalidateQueries({ queryKey: key });
    },
    onError: (error) => toast({ title: "Generation failed", description: serverMessage(error), variant: "destructive" }),
  });

  const approve = useMutation({
    mutationFn: (thumbnailUrl: string) => apiRequest<{ success: boolean }>("POST", "/api/approve-thumbnail", { thumbnailUrl }),
    onSuccess: (_result, thumbnailUrl) => {
      setCurrent((c) => (c && c.thumbnailUrl === thumbnailUrl ? { ...c, approved: true } : c));
      toast({ title: "Thumbnail approved", description: "It will be set on your video when you upload it." });
      queryClient.invalidateQueries({ queryKey: key });
      // the Upload page's pre-flight check reads the approved thumbnail's type and size
      queryClient.invalidateQueries({ queryKey: PREFLIGHT_KEY });
    },
    onError: (error) => toast({ title: "Approval failed", description: serverMessage(error), variant: "destructive" }),
  });

  return (
    <Card data-testid="thumbnail-generator">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <ImageIcon className="h-5 w-5 text-brand" aria-hidden /> Thumbnail Generator
        </CardTitle>
        <CardDescription>
          Pick a scene image, enter the title text, choose a font and size, then generate. 1280x720 with a black border
          {data?.hasWatermark ? " and your watermark bottom-right" : ""}.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-6">
        {workspace.isLoading ? <p className="text-slate-400">Loading...</p> : null}
        {workspace.isError ? (
          <p role="alert" className="text-red-300">
            {serverMessage(workspace.error)}
          </p>
        ) : null}

        {data && images.length === 0 ? (
          <div className="space-y-2 rounded-lg border border-slate-800 p-4">
            <p className="font-semibold">No scene images yet</p>
            <p className="text-sm text-slate-400">A thumbnail needs at least one scene image. Generate images on the storyboard first.</p>
            <Button asChild variant="outline" size="sm">
              <Link to="/storyboard">Go to Storyboard</Link>
            </Button>
          </div>
        ) : null}

        {images.length > 0 ? (
          <fieldset className="grid gap-2">
            <legend className="mb-2 text-sm font-medium">Base image</legend>
            <div className="grid grid-cols-3 gap-2 sm:grid-cols-4 lg:grid-cols-6">
              {images.map((image) => (
                <button
                  key={image.imageUrl}
                  type="button"
                  aria-pressed={image.imageUrl === imageUrl}
                  aria-label={`Scene ${image.cellIndex + 1}`}
                  onClick={() => setImageUrl(image.imageUrl)}
                  className={cn(
                    "overflow-hidden rounded-md border-2 transition",
                    image.imageUrl === imageUrl ? "border-brand ring-2 ring-brand" : "border-slate-800 hover:border-slate-600",
                  )}
                >
                  <img src={image.imageUrl} alt="" className="aspect-video w-full object-cover" loading="lazy" />
                </button>
              ))}
            </div>
          </fieldset>
        ) : null}

        <div className="grid gap-4 md:grid-cols-2">
          <div className="grid gap-2">
            <Label htmlFor="thumbnail-title">Title text</Label>
            <Input
              id="thumbnail-title"
              value={title}
              maxLength={THUMBNAIL_TITLE_MAX_CHARS}
              placeholder="Enter the thumbnail title"
              onChange={(e) => setTitle(e.target.value)}
            />
          </div>
          <div className="grid gap-2">
            <Label htmlFor="thumbnail-font">Font</Label>
            <Select value={font} onValueChange={setFont}>
              <SelectTrigger id="thumbnail-font" aria-label="Font">
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                {THUMBNAIL_FONTS.map((f) => (
                  <SelectItem key={f.value} value={f.value}>
                    <span style={fontStyle(f.value)} className="text-base">
                      {f.family}
                    </span>
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          </div>
        </div>

        <div className="grid gap-2">
          <Label htmlFor="thumbnail-size">Font size: {fontSize}px</Label>
          <Slider
            id="thumbnail-size"
            aria-label="Font size"
            min={THUMBNAIL.minFontSize}
            max={THUMBNAIL.maxFontSize}
            step={THUMBNAIL.fontSizeStep}
            value={[fontSize]}
            onValueChange={([v]) => typeof v === "number" && setFontSize(v)}
          />
          <p className="truncate text-slate-300" style={{ ...fontStyle(font), fontSize: Math.round(fontSize / 3) + 8 }} aria-hidden>
            {trimmedTitle || "Your title"}
          </p>
        </div>

        <div className="flex flex-wrap items-center gap-3">
          <Button onClick={() => generate.mutate()} disabled={!canGenerate || generate.isPending}>
            {generate.isPending ? <Loader2 className="h-4 w-4 animate-spin" aria-hidden /> : <Sparkles className="h-4 w-4" aria-hidden />}
            {generate.isPending ? "Generating..." : "Generate Thumbnail"}
          </Button>
          {!trimmedTitle && images.length > 0 ? <span className="text-sm text-slate-400">Enter a title to generate a thumbnail.</span> : null}
        </div>

        {current ? (
          <section aria-label="Thumbnail preview" className="space-y-3">
            <div className="flex items-center gap-2">
              <h3 className="font-semibold">Preview</h3>
              {current.approved ? (
                <span className="inline-flex items-center gap-1 rounded-full bg-emerald-900 px-2 py-0.5 text-xs text-emerald-200" data-testid="thumbnail-approved">
                  <CheckCircle2 className="h-3 w-3" aria-hidden /> Approved
                </span>
              ) : null}
            </div>
            <img src={current.thumbnailUrl} alt={`Thumbnail: ${current.title}`} className="w-full max-w-3xl rounded-lg border border-slate-800" />
            <div className="flex flex-wrap gap-3">
              <Button asChild variant="outline">
                <a
                  href={`${current.thumbnailUrl}?download=1&filename=${encodeURIComponent(thumbnailFileName(current.title))}`}
                  download={thumbnailFileName(current.title)}
                >
                  <Download className="h-4 w-4" aria-hidden /> Download Thumbnail
                </a>
              </Button>
              <Button onClick={() => approve.mutate(current.thumbnailUrl)} disabled={current.approved || approve.isPending}>
                <CheckCircle2 className="h-4 w-4" aria-hidden /> {current.approved ? "Approved" : approve.isPending ? "Approving..." : "Approve Thumbnail"}
              </Button>
            </div>
          </section>
        ) : null}
      </CardContent>
    </Card>
  );
}
