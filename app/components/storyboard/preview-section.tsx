// The live preview's frame: the section, its heading and whatever sits beside the heading. Kept apart from the
// Player so the storyboard can draw the frame before the preview's code (Remotion) has loaded.
import { forwardRef, type ReactNode } from "react";

export const PreviewSection = forwardRef<HTMLElement, { aside?: ReactNode; children: ReactNode }>(function PreviewSection({ aside, children }, ref) {
  return (
    <section ref={ref} aria-label="Video preview" className="mt-8 rounded-xl border border-slate-800 bg-slate-900 p-4">
      <div className="mb-3 flex flex-wrap items-center justify-between gap-3">
        <h2 className="text-lg font-semibold">Preview</h2>
        {aside}
      </div>
      {children}
    </section>
  );
});

export const PREVIEW_NOT_READY = "The preview plays here when all scenes have pictures and narration.";
