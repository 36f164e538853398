// The live preview's frame: the section and its heading row, kept apart from the Player so the storyboard draws
// them (one section element from the server's HTML on) before the preview's code (Remotion) has loaded.
import { forwardRef, type ReactNode } from "react";

export const PreviewSection = forwardRef<HTMLElement, { children: ReactNode }>(function PreviewSection({ children }, ref) {
  return (
    <section ref={ref} aria-label="Video preview" className="mt-8 rounded-xl border border-slate-800 bg-slate-900 p-4">
      {children}
    </section>
  );
});

/** The heading, with whatever sits beside it (the caption style picker once the preview has loaded). */
export function PreviewHeading({ aside }: { aside?: ReactNode }) {
  return (
    <div className="mb-3 flex flex-wrap items-center justify-between gap-3">
      <h2 className="text-lg font-semibold">Preview</h2>
      {aside}
    </div>
  );
}

export const PREVIEW_NOT_READY = "The preview plays here when all scenes have pictures and narration.";
export const PREVIEW_LOADING = "Loading the preview...";
