import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { maskedPlaceholder } from "./secret-fields";

/** A password field whose placeholder is the masked saved secret (or a hint when none is saved). */
export function SecretInput(props: {
  id: string;
  label: string;
  hint: string;
  savedLength: number | null | undefined;
  value: string;
  onChange: (value: string) => void;
}) {
  const saved = props.savedLength !== 0 && props.savedLength !== undefined;
  return (
    <div className="grid gap-2">
      <Label htmlFor={props.id}>
        {props.label}
        {saved ? <span className="ml-2 text-xs font-normal text-emerald-400">Saved</span> : null}
      </Label>
      <Input
        id={props.id}
        type="password"
        autoComplete="off"
        spellCheck={false}
        placeholder={maskedPlaceholder(props.savedLength ?? 0, props.hint)}
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
      />
    </div>
  );
}
