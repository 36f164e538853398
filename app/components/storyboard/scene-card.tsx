import { ImageIcon, Loader2, Mic } from "lucide-react";
import { Button } from "~/components/ui/button";
import type { StoryboardCellView } from "~/server/storyboard.server";
import { needsAudio, needsImage } from "~/lib/storyboard";
import { mediaSrcSet, mediaVariantUrl } from "~/lib/media-variants";
import { EditableField } from "./editable-field";
import { IMAGE_SOURCE_LABEL, SceneMediaControls } from "./scene-media-controls";
import { SCENE_DRAG_TYPE, SceneEditToolbar, type SceneEditActions } from "./scene-edit-toolbar";

export type SceneBusy = { image: boolean; voiceover: boolean };

// How wide a scene's image is drawn, for the browser's pick from the srcset: the grid's columns (1 on a phone, 2
// from sm, 3 from lg, 4 from 2xl, in a 1280 px page); a vertical frame is drawn 180 px wide (320 px high, 9:16).
const HORIZONTAL_SIZES = "(min-width: 1536px) 300px, (min-width: 1280px) 405px, (min-width: 1024px) 32vw, (min-width: 640px) 48vw, calc(100vw - 2rem)";
const VERTICAL_SIZES = "180px";

/** One scene: its image (or clip) and audio, its two texts (each editable), per-scene generation, own media. */
export function SceneCard(props: {
  cell: StoryboardCellView;
  busy: SceneBusy;
  playing: boolean;
  vertical: boolean;
  onSave: (field: "imagePrompt" | "voiceoverText", value: string) => Promise<void>;
  onGenerate: (kind: "image" | "voiceover") => void;
  onMediaChanged: () => void;
  /** the scene check's mark (issue 50): its picture does not show what is said */
  checkMark?: { score: number; reason: string };
  /** scene shaping (issue 33): absent, the card has no order or shape controls */
  editing?: { count: number; actions: SceneEditActions; onDropScene: (sceneId: string) => void };
}) {
  const { cell, busy } = props;
  const hasImage = !needsImage(cell);
  const hasAudio = !needsAudio(cell);
  const fit = props.vertical ? "object-contain" : "object-cover";
  // the first scene is the page's largest paint on a phone: fetched at once, the others when scrolled near
  const first = cell.cellIndex === 0;
  return (
    <article
      aria-label={`Scene ${cell.cellIndex + 1}`}
      data-scene-id={cell.id}
      onDragOver={(e) => {
        if (props.editing && e.dataTransfer.types.includes(SCENE_DRAG_TYPE)) e.preventDefault();
      }}
      onDrop={(e) => {
        const id = e.dataTransfer.getData(SCENE_DRAG_TYPE);
        if (!props.editing || !id) return;
        e.preventDefault();
        props.editing.onDropScene(id);
      }}
      // Cards off screen skip layout and paint (a 60-minute video has 240): they stay in the page, for the
      // keyboard, find-in-page and selectors; "auto" keeps a card's last drawn height while it is away.
      className={`flex flex-col overflow-hidden rounded-xl border bg-slate-900 [contain-intrinsic-size:auto_640px] [content-visibility:auto] ${props.playing ? "border-brand ring-2 ring-brand" : "border-slate-800"}`}
    >
      <div className={`relative overflow-hidden bg-slate-800 ${props.vertical ? "aspect-[9/16] max-h-80" : "aspect-video"}`}>
        {/* a 9:16 box capped in height is wider than 9:16: the whole frame is shown, over a blurred copy of itself */}
        {hasImage && props.vertical ? (
          <div aria-hidden className="absolute inset-0 scale-110 bg-cover bg-center opacity-40 blur-lg" style={{ backgroundImage: `url("${mediaVariantUrl(cell.imageUrl!, 320)}")` }} />
        ) : null}
        {hasImage && cell.clipUrl ? (
          <video
            src={cell.clipUrl}
            poster={mediaVariantUrl(cell.imageUrl!, 800)}
            muted
            loop
            autoPlay
            playsInline
            className={`relative h-full w-full ${fit}`}
            aria-label={`Scene ${cell.cellIndex + 1} clip`}
          />
        ) : hasImage ? (
          <img
            src={cell.imageUrl!}
            srcSet={mediaSrcSet(cell.imageUrl!)}
            sizes={props.vertical ? VERTICAL_SIZES : HORIZONTAL_SIZES}
            alt={cell.imagePrompt}
            className={`relative h-full w-full ${fit}`}
            loading={first ? "eager" : "lazy"}
            fetchPriority={first ? "high" : undefined}
          />
        ) : (
          <div className="flex h-full items-center justify-center text-slate-400">
            <ImageIcon className="h-10 w-10" aria-hidden />
          </div>
        )}
        {busy.image ? (
          <div className="absolute inset-0 flex items-center justify-center bg-slate-950/70" role="status">
            <Loader2 className="h-8 w-8 animate-spin" aria-hidden />
            <span className="sr-only">Generating image</span>
          </div>
        ) : null}
        <span className="absolute left-2 top-2 rounded bg-slate-950/80 px-2 py-0.5 text-xs font-semibold">
          Scene {cell.cellIndex + 1} · {(cell.audioDuration ?? cell.estimatedDuration).toFixed(1)} s
        </span>
        {props.checkMark ? (
          <span className="absolute bottom-2 left-2 max-w-[70%] truncate rounded bg-amber-950/90 px-2 py-0.5 text-xs font-semibold text-amber-200" title={props.checkMark.reason} data-testid="scene-check-badge">
            Does not match the words ({props.checkMark.score}/100)
          </span>
        ) : null}
        {!hasAudio ? (
          <span className="absolute bottom-2 right-2 rounded bg-amber-950/90 px-2 py-0.5 text-xs font-semibold text-amber-200">Needs a voiceover</span>
        ) : null}
        {cell.imageSource !== "generated" || cell.clipUrl || cell.mediaCredit ? (
          <span className="absolute right-2 top-2 rounded bg-brand/90 px-2 py-0.5 text-xs font-semibold">
            {cell.imageSource === "generated" && cell.mediaCredit ? "Pexels" : IMAGE_SOURCE_LABEL[cell.imageSource]}
            {cell.clipUrl ? " · clip" : cell.mediaCredit ? " · photo" : ""}
          </span>
        ) : null}
        {cell.imageSource === "generated" && cell.mediaCredit ? (
          <a
            href={cell.mediaCredit.pageUrl}
            target="_blank"
            rel="noopener noreferrer"
            className="absolute bottom-2 left-2 max-w-[90%] truncate rounded bg-slate-950/80 px-2 py-0.5 text-xs text-slate-200 hover:underline"
          >
            {cell.mediaCredit.kind === "photo" ? "Photo" : "Video"} by {cell.mediaCredit.author} on Pexels
          </a>
        ) : null}
      </div>
      <div className="flex flex-1 flex-col gap-4 p-4">
        <EditableField label="Image prompt" value={cell.imagePrompt} onSave={(v) => props.onSave("imagePrompt", v)} />
        <EditableField label="Voiceover" value={cell.voiceoverText} onSave={(v) => props.onSave("voiceoverText", v)} />
        {hasAudio ? <audio controls preload="none" src={cell.audioUrl!} className="w-full" aria-label={`Scene ${cell.cellIndex + 1} voiceover`} /> : null}
        <div className="mt-auto flex flex-wrap gap-2">
          <Button size="sm" variant="outline" onClick={() => props.onGenerate("image")} disabled={busy.image}>
            {busy.image ? <Loader2 className="h-4 w-4 animate-spin" aria-hidden /> : <ImageIcon className="h-4 w-4" aria-hidden />}
            {busy.image ? "Generating..." : hasImage ? "Regenerate Image" : "Generate Image"}
          </Button>
          <Button size="sm" variant="outline" onClick={() => props.onGenerate("voiceover")} disabled={busy.voiceover}>
            {busy.voiceover ? <Loader2 className="h-4 w-4 animate-spin" aria-hidden /> : <Mic className="h-4 w-4" aria-hidden />}
            {busy.voiceover ? "Generating..." : hasAudio ? "Regenerate Voiceover" : "Generate Voiceover"}
          </Button>
        </div>
        <SceneMediaControls cell={cell} onChanged={props.onMediaChanged} />
        {props.editing ? <SceneEditToolbar cell={cell} count={props.editing.count} actions={props.editing.actions} disabled={cell.id.startsWith("new-")} /> : null}
      </div>
    </article>
  );
}
