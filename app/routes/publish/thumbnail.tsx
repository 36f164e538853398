import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { ArrowLeft } from "lucide-react";
import { ThumbnailGenerator } from "~/components/thumbnail/thumbnail-generator";
import { requireUserId } from "~/server/auth.server";
import { getCurrentProject } from "~/core/projects.server";
import { pageMeta } from "~/lib/meta";

export const meta: MetaFunction = () => pageMeta("Thumbnail · Reelsmith");

// /thumbnail: the Thumbnail Generator for the current project.
export async function loader({ request }: LoaderFunctionArgs) {
  const project = await getCurrentProject(await requireUserId(request));
  return { project: project ? { id: project.id, title: project.title } : null };
}

export default function ThumbnailPage() {
  const { project } = useLoaderData<typeof loader>();
  return (
    <main className="mx-auto max-w-5xl space-y-6 px-4 py-10">
      <header>
        <h1 className="text-3xl font-bold">Thumbnail</h1>
        <p className="mt-2 text-slate-400">{project ? project.title : "Create a video first: a thumbnail is made from its scene images."}</p>
      </header>
      {project ? (
        <ThumbnailGenerator />
      ) : (
        <p>
          <Link to="/create" className="text-violet-300 underline">
            Create New Video
          </Link>
        </p>
      )}
      <Link to="/dashboard" className="flex w-fit items-center gap-2 text-slate-300 hover:text-white">
        <ArrowLeft className="h-4 w-4" aria-hidden /> Back to Dashboard
      </Link>
    </main>
  );
}
