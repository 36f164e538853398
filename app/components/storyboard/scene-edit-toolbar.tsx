// A scene card's shaping controls (issue 33): move up and down (buttons, or the handle: dragged with a mouse, or
// the arrow keys on it), add a scene before or after, split at the cursor, merge with the next, delete (with undo).
import { ArrowDown, ArrowUp, Combine, GripVertical, Plus, Scissors, Trash2 } from "lucide-react";
import { Button } from "~/components/ui/button";
import type { StoryboardCellView } from "~/server/storyboard.server";
import { AddSceneDialog } from "./add-scene-dialog";
import { SplitSceneDialog } from "./split-scene-dialog";

/** The drag data type: a scene's id, dragged by its handle onto another card. */
export const SCENE_DRAG_TYPE = "application/x-reelsmith-scene";

export type SceneEditActions = {
  move: (cell: StoryboardCellView, to: number) => void;
  add: (at: number, text: string) => Promise<unknown>;
  split: (cell: StoryboardCellView, at: number) => Promise<unknown>;
  merge: (cell: StoryboardCellView) => void;
  remove: (cell: StoryboardCellView) => void;
};

export function SceneEditToolbar({ cell, count, actions, disabled }: { cell: StoryboardCellView; count: number; actions: SceneEditActions; disabled: boolean }) {
  const n = cell.cellIndex + 1;
  const first = cell.cellIndex === 0;
  const last = cell.cellIndex === count - 1;
  return (
    <div role="toolbar" aria-label={`Scene ${n} order and shape`} className="flex flex-wrap items-center gap-1 border-t border-slate-800 pt-3">
      <button
        type="button"
        draggable={!disabled}
        disabled={disabled}
        aria-label={`Move scene ${n}: drag, or press the up and down arrow keys`}
        title="Drag to move, or use the arrow keys"
        onDragStart={(e) => {
          e.dataTransfer.setData(SCENE_DRAG_TYPE, cell.id);
          e.dataTransfer.effectAllowed = "move";
          const card = e.currentTarget.closest("article");
          if (card) e.dataTransfer.setDragImage(card, 24, 24);
        }}
        onKeyDown={(e) => {
          if (e.key === "ArrowUp" && !first) actions.move(cell, cell.cellIndex - 1);
          else if (e.key === "ArrowDown" && !last) actions.move(cell, cell.cellIndex + 1);
          else return;
          e.preventDefault();
        }}
        className="cursor-grab rounded p-1.5 text-slate-300 hover:bg-slate-800 hover:text-white focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand disabled:opacity-50 active:cursor-grabbing"
      >
        <GripVertical className="h-4 w-4" aria-hidden />
      </button>
      <IconButton label={`Move scene ${n} up`} disabled={disabled || first} onClick={() => actions.move(cell, cell.cellIndex - 1)}>
        <ArrowUp className="h-4 w-4" aria-hidden />
      </IconButton>
      <IconButton label={`Move scene ${n} down`} disabled={disabled || last} onClick={() => actions.move(cell, cell.cellIndex + 1)}>
        <ArrowDown className="h-4 w-4" aria-hidden />
      </IconButton>
      <AddSceneDialog sceneNumber={n} onAdd={(where, text) => actions.add(where === "before" ? cell.cellIndex : cell.cellIndex + 1, text)} disabled={disabled}>
        <Plus className="h-4 w-4" aria-hidden />
      </AddSceneDialog>
      <SplitSceneDialog cell={cell} onSplit={(at) => actions.split(cell, at)} disabled={disabled}>
        <Scissors className="h-4 w-4" aria-hidden />
      </SplitSceneDialog>
      <IconButton label={`Merge scene ${n} with scene ${n + 1}`} disabled={disabled || last} onClick={() => actions.merge(cell)}>
        <Combine className="h-4 w-4" aria-hidden />
      </IconButton>
      <IconButton label={`Delete scene ${n}`} disabled={disabled || count < 2} onClick={() => actions.remove(cell)} className="ml-auto text-red-300 hover:text-red-200">
        <Trash2 className="h-4 w-4" aria-hidden />
      </IconButton>
    </div>
  );
}

function IconButton(props: { label: string; disabled?: boolean; onClick: () => void; className?: string; children: React.ReactNode }) {
  return (
    <Button type="button" size="sm" variant="ghost" aria-label={props.label} title={props.label} disabled={props.disabled} onClick={props.onClick} className={`px-2 ${props.className ?? ""}`}>
      {props.children}
    </Button>
  );
}
