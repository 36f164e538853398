import { Pencil } from "lucide-react";
import { useState } from "react";
import { Button } from "~/components/ui/button";

/** A scene's text with its own editor: Edit opens it, Save sends the change, Cancel drops it. */
export function EditableField(props: { label: string; value: string; onSave: (next: string) => Promise<void> }) {
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(props.value);
  const [saving, setSaving] = useState(false);

  async function save() {
    setSaving(true);
    try {
      await props.onSave(draft.trim());
      setEditing(false);
    } finally {
      setSaving(false);
    }
  }

  return (
    <div className="grid gap-1">
      <div className="flex items-center justify-between">
        <span className="text-xs font-semibold uppercase tracking-wide text-slate-400">{props.label}</span>
        {!editing ? (
          <button
            type="button"
            className="rounded p-1 text-slate-400 hover:text-white"
            aria-label={`Edit ${props.label.toLowerCase()}`}
            onClick={() => {
              setDraft(props.value);
              setEditing(true);
            }}
          >
            <Pencil className="h-3.5 w-3.5" aria-hidden />
          </button>
        ) : null}
      </div>
      {editing ? (
        <div className="grid gap-2">
          <textarea
            aria-label={props.label}
            value={draft}
            onChange={(e) => setDraft(e.target.value)}
            rows={4}
            className="rounded-md border border-slate-700 bg-slate-950 p-2 text-sm outline-none focus:border-brand"
          />
          <div className="flex gap-2">
            <Button size="sm" onClick={save} disabled={saving || !draft.trim()}>
              {saving ? "Saving..." : "Save"}
            </Button>
            <Button size="sm" variant="ghost" onClick={() => setEditing(false)} disabled={saving}>
              Cancel
            </Button>
          </div>
        </div>
      ) : (
        <p className="text-sm text-slate-300">{props.value}</p>
      )}
    </div>
  );
}
