import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { ArrowLeft } from "lucide-react";
import { ThumbnailGenerator } from "~/components/thumbnail/thumbnail-generator";
import { requireUserId } from "~/server/auth.server";
import { getProjectForUser } from "~/core/projects.server";
import { pageMeta } from "~/lib/meta";

export const meta: MetaFunction<typeof loader> = ({ data }) => pageMeta(`${data?.project.title ?? "Project"} · Thumbnail · Reelsmith`);

// /projects/{id}: the project thumbnail area, with its back link to the project's upload page. Another user's
// project (or a missing one) is a 404.
export async function loader({ request, params }: LoaderFunctionArgs) {
  const userId = await requireUserId(request);
  const project = await getProjectForUser(userId, params.id ?? "");
  return { project: { id: project.id, title: project.title } };
}

export default function ProjectThumbnailPage() {
  const { project } = useLoaderData<typeof loader>();
  return (
    <main className="mx-auto max-w-5xl space-y-6 px-4 py-10">
      <Link to={`/projects/${project.id}/upload`} className="inline-flex items-center gap-2 text-slate-300 hover:text-white">
        <ArrowLeft className="h-4 w-4" aria-hidden /> Back to Upload
      </Link>
      <header>
        <h1 className="text-3xl font-bold">{project.title}</h1>
        <p className="mt-2 text-slate-400">Thumbnail</p>
      </header>
      <ThumbnailGenerator projectId={project.id} />
    </main>
  );
}
