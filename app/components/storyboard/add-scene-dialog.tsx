// Adding a scene (issue 33): what it says, and whether it goes before or after this one. It has no picture or
// voiceover until they are generated (Generate All makes only what is missing).
import { useId, useState } from "react";
import { Button } from "~/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogTitle, DialogTrigger } from "~/components/ui/dialog";
import { Textarea } from "~/components/ui/textarea";
import { SCENE_TEXT_MAX_CHARS } from "~/lib/scene-edit";

export function AddSceneDialog(props: { sceneNumber: number; disabled: boolean; onAdd: (where: "before" | "after", text: string) => Promise<unknown>; children: React.ReactNode }) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const [text, setText] = useState("");
  const [where, setWhere] = useState<"before" | "after">("after");
  function add(event: React.FormEvent) {
    event.preventDefault();
    if (!text.trim()) return;
    void props.onAdd(where, text.trim());
    setOpen(false);
    setText("");
  }
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button type="button" size="sm" variant="ghost" className="px-2" disabled={props.disabled} aria-label={`Add a scene next to scene ${props.sceneNumber}`} title="Add a scene">
          {props.children}
        </Button>
      </DialogTrigger>
      <DialogContent className="max-w-[calc(100vw-2rem)] sm:max-w-lg">
        <DialogTitle className="text-lg font-semibold">Add a scene</DialogTitle>
        <DialogDescription className="text-sm text-slate-400">Its picture and voiceover are made when you generate them (Generate All makes only what is missing).</DialogDescription>
        <form onSubmit={add} className="grid gap-4">
          <fieldset className="flex flex-wrap gap-4 text-sm">
            <legend className="sr-only">Where</legend>
            {(["before", "after"] as const).map((option) => (
              <label key={option} className="flex items-center gap-2">
                <input type="radio" name={`${id}-where`} value={option} checked={where === option} onChange={() => setWhere(option)} className="accent-violet-500" />
                {option === "before" ? `Before scene ${props.sceneNumber}` : `After scene ${props.sceneNumber}`}
              </label>
            ))}
          </fieldset>
          <label htmlFor={`${id}-text`} className="text-sm font-medium">
            What the scene says
          </label>
          <Textarea id={`${id}-text`} value={text} onChange={(e) => setText(e.target.value)} rows={5} maxLength={SCENE_TEXT_MAX_CHARS} required />
          <Button type="submit" disabled={!text.trim()} className="justify-self-start">
            Add Scene
          </Button>
        </form>
      </DialogContent>
    </Dialog>
  );
}
