import { Link } from "@remix-run/react";
import { Captions, Download, Trash2, Upload, Volume2 } from "lucide-react";
import { Button } from "~/components/ui/button";

/** A file name for the download: the title, lowercased, with anything but letters and digits as underscores. */
export function videoFileName(title: string): string {
  const base = title.toLowerCase().replace(/[^a-z0-9]+/g, "_").replace(/^_+|_+$/g, "");
  return `${base || "video"}.mp4`;
}

/** The caption track's downloads (SubRip and WebVTT), when the video has one. */
export function CaptionDownloads({ captions }: { captions: { srt: string; vtt: string } | null }) {
  if (!captions) return null;
  return (
    <div className="flex items-start gap-2 text-sm" data-testid="caption-downloads">
      <Captions className="mt-0.5 h-4 w-4 shrink-0 text-slate-300" aria-hidden />
      <span className="flex flex-wrap gap-x-3 gap-y-1">
        <span className="text-slate-300">Captions:</span>
        {/* the two links wrap together: on a phone both go under "Captions:", not one of them under the label */}
        <span className="flex flex-wrap gap-x-3 gap-y-1">
          <a href={captions.srt} download className="text-violet-300 underline hover:text-white">
            Download SRT
          </a>
          <a href={captions.vtt} download className="text-violet-300 underline hover:text-white">
            Download WebVTT
          </a>
        </span>
      </span>
    </div>
  );
}

/** A figure and its unit on one line: a phone's narrow column never leaves "-1.5" at a line's end and "dBTP" on the next. */
export function FigureWithUnit({ text }: { text: string }) {
  return <span className="whitespace-nowrap">{text}</span>;
}

/** Text with each "figure unit" pair (-14.0 LUFS, -1 dBTP) kept on one line; the text itself is unchanged. */
export function KeepFiguresWithUnits({ text }: { text: string }) {
  const parts = text.split(/(-?\d+(?:\.\d+)? (?:LUFS|dBTP|LU|dB)\b)/);
  return <>{parts.map((part, i) => (i % 2 === 1 ? <FigureWithUnit key={i} text={part} /> : part))}</>;
}

/** The delivered sound as measured: integrated loudness and true peak against YouTube's -14 LUFS and -1 dBTP. */
export function LoudnessFact({ loudnessLufs, truePeakDbtp }: { loudnessLufs: number | null | undefined; truePeakDbtp: number | null | undefined }) {
  if (loudnessLufs === null || loudnessLufs === undefined || truePeakDbtp === null || truePeakDbtp === undefined) return null;
  return (
    <p className="flex items-start gap-2 text-sm text-slate-300" data-testid="video-loudness">
      <Volume2 className="mt-0.5 h-4 w-4 shrink-0" aria-hidden />
      <span>
        Loudness: <FigureWithUnit text={`${loudnessLufs.toFixed(1)} LUFS`} />, true peak <FigureWithUnit text={`${truePeakDbtp.toFixed(1)} dBTP`} />{" "}
        <span className="text-slate-400">
          (YouTube plays at <FigureWithUnit text="-14 LUFS" />, peaks at most <FigureWithUnit text="-1 dBTP" />)
        </span>
      </span>
    </p>
  );
}

export function RenderedVideo(props: {
  videoUrl: string;
  title: string;
  deleting: boolean;
  onDelete: () => void;
  facts?: { loudnessLufs?: number | null; truePeakDbtp?: number | null; captions?: { srt: string; vtt: string } | null };
  /** more of the video's facts, shown after the sound's (issue 50: motion share, scene check) */
  children?: React.ReactNode;
}) {
  const { videoUrl, title, deleting, onDelete, facts } = props;
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
      <LoudnessFact loudnessLufs={facts?.loudnessLufs} truePeakDbtp={facts?.truePeakDbtp} />
      <CaptionDownloads captions={facts?.captions ?? null} />
      {props.children}
    </section>
  );
}
