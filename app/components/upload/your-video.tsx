// 'Your Video' (player, open in new tab, download, copy link), or 'No Video Found' with a way to /render.
import { Link } from "@remix-run/react";
import { Copy, Download, ExternalLink, Film } from "lucide-react";
import { CaptionDownloads, videoFileName } from "~/components/render/rendered-video";
import { Button } from "~/components/ui/button";
import { toast } from "~/hooks/use-toast";

export function YourVideo({ videoUrl, title, captions }: { videoUrl: string | null; title: string; captions?: { srt: string; vtt: string } | null }) {
  if (!videoUrl) {
    return (
      <section aria-label="Your Video" className="space-y-3 rounded-xl border border-slate-800 bg-slate-900 p-6 text-center">
        <Film className="mx-auto h-10 w-10 text-slate-400" aria-hidden />
        <h2 className="text-xl font-semibold">No Video Found</h2>
        <p className="text-slate-400">Render your video first, then come back to upload it.</p>
        <Button asChild>
          <Link to="/render">Go to Render</Link>
        </Button>
      </section>
    );
  }
  const absolute = () => new URL(videoUrl, window.location.origin).toString();
  const copyLink = async () => {
    try {
      await navigator.clipboard.writeText(absolute());
      toast({ title: "Link copied", description: "The video link is on your clipboard." });
    } catch {
      toast({ title: "Copy failed", description: "Your browser did not allow copying. Copy the link from the address bar of the opened video.", variant: "destructive" });
    }
  };
  const downloadUrl = `${videoUrl}?download=1&filename=${encodeURIComponent(videoFileName(title))}`;
  return (
    <section aria-label="Your Video" className="space-y-4 rounded-xl border border-slate-800 bg-slate-900 p-6">
      <h2 className="text-xl font-semibold">Your Video</h2>
      <video key={videoUrl} src={videoUrl} controls preload="metadata" className="max-h-[480px] w-full rounded-lg bg-black" />
      <div className="flex flex-wrap gap-3">
        <Button asChild variant="outline">
          <a href={videoUrl} target="_blank" rel="noreferrer">
            <ExternalLink className="h-4 w-4" aria-hidden /> Open in New Tab
          </a>
        </Button>
        <Button asChild variant="outline">
          <a href={downloadUrl} download={videoFileName(title)}>
            <Download className="h-4 w-4" aria-hidden /> Download
          </a>
        </Button>
        <Button variant="outline" onClick={copyLink}>
          <Copy className="h-4 w-4" aria-hidden /> Copy Link
        </Button>
      </div>
      <CaptionDownloads captions={captions ?? null} />
    </section>
  );
}
