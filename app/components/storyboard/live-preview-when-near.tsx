// The storyboard's live preview, loaded when it comes near the screen (issue 36, decision 134's fifth round).
// The preview is the page's last section and its code (Remotion, the Player, the caption style picker) is about
// 300 KiB; mounting the Player is a few long tasks. On a phone the section is many scene cards below the fold,
// so a creator who never scrolls there pays nothing for it, and the page is interactive sooner.
import { lazy, startTransition, Suspense, useState } from "react";
import { useInView } from "react-intersection-observer";
import type { ResolutionValue } from "~/lib/video-format";
import { allScenesHaveMedia } from "~/lib/storyboard";
import type { StoryboardCellView } from "~/server/storyboard.server";
import { PREVIEW_LOADING, PREVIEW_NOT_READY, PreviewHeading, PreviewSection } from "./preview-section";

const LivePreview = lazy(() => import("./live-preview").then((m) => ({ default: m.LivePreview })));

/** Starts loading a screen's height before the section is reached, so it is usually drawn by the time it shows. */
const LOAD_AHEAD = "100% 0px";

export function LivePreviewWhenNear({ cells, resolution }: { cells: StoryboardCellView[]; resolution: ResolutionValue }) {
  const [near, setNear] = useState(false);
  // a transition: the Player's first render is split into short tasks instead of holding the page; a browser
  // without IntersectionObserver gets the preview at once
  const { ref } = useInView({ triggerOnce: true, rootMargin: LOAD_AHEAD, fallbackInView: true, onChange: (inView) => inView && startTransition(() => setNear(true)) });
  const waiting = (
    <>
      <PreviewHeading />
      <p className="text-sm text-slate-400">{allScenesHaveMedia(cells) ? PREVIEW_LOADING : PREVIEW_NOT_READY}</p>
    </>
  );
  // one section element throughout, from the server's HTML to the Player
  return (
    <PreviewSection ref={ref}>
      {near ? (
        <Suspense fallback={waiting}>
          <LivePreview cells={cells} resolution={resolution} />
        </Suspense>
      ) : (
        waiting
      )}
    </PreviewSection>
  );
}
