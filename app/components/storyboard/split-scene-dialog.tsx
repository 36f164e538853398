// Splitting a scene at the cursor (issue 33): the voiceover shown in a text box, the cursor put where the new scene
// should start, and the two halves shown before the split is made. Both halves are spoken again; the first keeps
// the picture.
import { useId, useState } from "react";
import { Button } from "~/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogTitle, DialogTrigger } from "~/components/ui/dialog";
import { Textarea } from "~/components/ui/textarea";
import { splitText } from "~/lib/scene-edit";
import type { StoryboardCellView } from "~/server/storyboard.server";

/** The middle of the text, at a word boundary: where the cursor starts. */
function middleOf(text: string): number {
  const space = text.indexOf(" ", Math.floor(text.length / 2));
  return space < 0 ? text.length : space;
}

export function SplitSceneDialog(props: { cell: StoryboardCellView; disabled: boolean; onSplit: (at: number) => Promise<unknown>; children: React.ReactNode }) {
  const id = useId();
  const n = props.cell.cellIndex + 1;
  const text = props.cell.voiceoverText;
  const [open, setOpen] = useState(false);
  const [cursor, setCursor] = useState(() => middleOf(text));
  const halves = splitText(text, cursor);
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (next) setCursor(middleOf(text));
      }}
    >
      <DialogTrigger asChild>
        <Button type="button" size="sm" variant="ghost" className="px-2" disabled={props.disabled} aria-label={`Split scene ${n} at the cursor`} title="Split at the cursor">
          {props.children}
        </Button>
      </DialogTrigger>
      <DialogContent className="max-w-[calc(100vw-2rem)] sm:max-w-lg">
        <DialogTitle className="text-lg font-semibold">Split scene {n}</DialogTitle>
        <DialogDescription className="text-sm text-slate-400">
          Put the cursor where the new scene should start (click, or move it with the arrow keys). Both scenes get a new voiceover; the first keeps the picture.
        </DialogDescription>
        <label htmlFor={`${id}-text`} className="text-sm font-medium">
          Voiceover of scene {n}
        </label>
        <Textarea
          id={`${id}-text`}
          // not readOnly: a read-only box does not move its caret with the arrow keys; typing changes nothing
          aria-readonly="true"
          value={text}
          onChange={() => {}}
          rows={6}
          autoFocus
          onFocus={(e) => e.currentTarget.setSelectionRange(cursor, cursor)}
          // wherever the caret goes: clicked, moved with the keyboard, or selected
          onSelect={(e) => setCursor(e.currentTarget.selectionStart)}
          onKeyUp={(e) => setCursor(e.currentTarget.selectionStart)}
          onMouseUp={(e) => setCursor(e.currentTarget.selectionStart)}
          className="leading-relaxed"
        />
        <div className="grid gap-2 text-sm" aria-live="polite" data-testid="split-preview">
          {halves ? (
            <>
              <p>
                <span className="font-semibold text-slate-300">Scene {n}:</span> {halves[0]}
              </p>
              <p>
                <span className="font-semibold text-slate-300">Scene {n + 1}:</span> {halves[1]}
              </p>
            </>
          ) : (
            <p className="text-amber-300">Put the cursor between two words.</p>
          )}
        </div>
        <Button
          type="button"
          disabled={!halves}
          className="justify-self-start"
          onClick={() => {
            void props.onSplit(cursor);
            setOpen(false);
          }}
        >
          Split Here
        </Button>
      </DialogContent>
    </Dialog>
  );
}
