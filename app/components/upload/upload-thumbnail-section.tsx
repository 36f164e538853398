// WHERE THE THUMBNAIL GENERATOR GOES on /upload. The Thumbnail Generator (app/components/thumbnail/
// thumbnail-generator.tsx) is built on another branch and was not on main when this page was written: the lead
// wires `<ThumbnailGenerator />` in here when both land. Until then this section says where thumbnails are made
// and which approved thumbnail the upload will set.
import { Link } from "@remix-run/react";
import { Image as ImageIcon } from "lucide-react";

export function UploadThumbnailSection({ approvedThumbnailUrl }: { approvedThumbnailUrl: string | null }) {
  return (
    <section aria-label="Thumbnail" data-slot="thumbnail-generator" className="space-y-3 rounded-xl border border-slate-800 bg-slate-900 p-6">
      <h2 className="flex items-center gap-2 text-xl font-semibold">
        <ImageIcon className="h-5 w-5 text-brand" aria-hidden /> Thumbnail
      </h2>
      {approvedThumbnailUrl ? (
        <div className="space-y-2">
          <img src={approvedThumbnailUrl} alt="Approved thumbnail" className="w-full max-w-md rounded-lg border border-slate-700" />
          <p className="text-sm text-slate-400">This approved thumbnail is set on the video after the upload.</p>
        </div>
      ) : (
        <p className="text-sm text-slate-400">
          No approved thumbnail yet: YouTube picks a frame. Make one on the <Link to="/thumbnail" className="text-brand underline">Thumbnail</Link> page.
        </p>
      )}
    </section>
  );
}
