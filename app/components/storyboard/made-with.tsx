// "Made with": which provider split the script, drew each picture and spoke each voiceover, with the way to
// change them (Settings). Recorded when the work was done, so it says what happened.
import { Link } from "@remix-run/react";
import { storyboardMadeWith, type MadeWithItem } from "~/lib/provenance";

export function MadeWith({ splitBy, cells }: { splitBy: string | null; cells: Parameters<typeof storyboardMadeWith>[1] }) {
  const items: MadeWithItem[] = storyboardMadeWith(splitBy, cells);
  if (!items.length) return null;
  return (
    <div aria-label="Made with" role="group" className="mt-3 max-w-3xl text-sm text-slate-400">
      <ul className="flex flex-col gap-0.5">
        {items.map((item) => (
          <li key={item.what}>
            <span className="font-medium text-slate-200">{item.what}:</span> {item.text}
          </li>
        ))}
      </ul>
      <Link to="/settings" className="text-violet-300 underline">
        Change providers in Settings
      </Link>
    </div>
  );
}
