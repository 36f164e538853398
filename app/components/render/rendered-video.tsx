import { Link } from "@remix-run/react";
import { Download, Trash2, Upload } from "lucide-react";
import { Button } from "~/components/ui/button";

/** A file name for the download: the title, lowercased, with anything but letters and digits as underscores. */
export function videoFileName(title: string): string {
  const base = title.toLowerCase().replace(/[^a-z0-9]+/g, "_").replace(/^_+|_+$/g, "");
  return `${base || "video"}.mp4`;
}

export function RenderedVideo(props: { videoUrl: string; title: string; deleting: boolean; onDelete: () => void }) {
  const { videoUrl, title, deleting, onDelete } = props;
  const downloadUrl = `${videoUrl}?download=1&filename=${encodeURIComponent(videoFileName(title))}`;
  return (
    <section aria-label="Rendered video" className="space-y-4 rounded-xl border border-emerald-800 bg-slate-900 p-6">
      <h2 className="text-xl font-semibold text-emerald-300">Video Rendered Successfully</h2>
      <video
        key={videoUrl}
        src={videoUrl}
        controls
        preload="metadata"
        // fits the window's height too, so a vertical video leaves Download Video in view (1280x800 and phones)
        className="mx-auto block max-h-[calc(100dvh-15rem)] w-auto max-w-full rounded-lg bg-black"
        onError={() => {
          // diagnostic only, never shown: what does the server say about the file?
          fetch(videoUrl, { method: "HEAD", credentials: "include" })
            .then((r) => console.warn("video playback failed; HEAD", videoUrl, r.status, r.headers.get("Content-Type")))
            .catch((e) => console.warn("video playback failed; HEAD request failed", videoUrl, e));
        }}
      />
      <div className="flex flex-wrap gap-3">
        <Button asChild>
          <a href={downloadUrl} download={videoFileName(title)}>
            <Download className="h-4 w-4" aria-hidden /> Download Video
          </a>
        </Button>
        <Button variant="destructive" onClick={onDelete} disabled={deleting}>
          <Trash2 className="h-4 w-4" aria-hidden /> Delete Video
        </Button>
        <Button asChild variant="outline">
          <Link to="/upload">
            <Upload className="h-4 w-4" aria-hidden /> Upload to YouTube
          </Link>
        </Button>
      </div>
    </section>
  );
}
