import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ArrowLeft, Upload } from "lucide-react";
import { PlatformGuidelines } from "~/components/upload/platform-guidelines";
import { PlatformPublish } from "~/components/platforms/platform-publish";
import { UploadForm } from "~/components/upload/upload-form";
import { ThumbnailGenerator } from "~/components/thumbnail/thumbnail-generator";
import { AUTH_STATUS_KEY, CATEGORIES_KEY, disconnectRequest, fetchAuthStatus, PREFLIGHT_KEY } from "~/components/upload/upload-queries";
import { ConnectYoutubePrompt, useYoutubeConnect } from "~/components/upload/youtube-connect";
import { YourVideo } from "~/components/upload/your-video";
import { toast } from "~/hooks/use-toast";
import { serverMessage } from "~/lib/api-client";
import { requireUser } from "~/server/auth.server";
import { getPublishPageData } from "~/server/platforms/publish-page.server";
import { pageMeta } from "~/lib/meta";

export const meta: MetaFunction = () => pageMeta("Upload · Reelsmith");

export async function loader({ request }: LoaderFunctionArgs) {
  return getPublishPageData(await requireUser(request));
}

export default function UploadPage() {
  const data = useLoaderData<typeof loader>();
  const queryClient = useQueryClient();
  const auth = useQuery({ queryKey: AUTH_STATUS_KEY, queryFn: fetchAuthStatus });
  const { connect, connecting } = useYoutubeConnect();
  const disconnect = useMutation({
    mutationFn: disconnectRequest,
    onSuccess: () => {
      toast({ title: "YouTube disconnected", description: "Reelsmith no longer holds tokens for your channel." });
      queryClient.invalidateQueries({ queryKey: AUTH_STATUS_KEY });
      queryClient.invalidateQueries({ queryKey: CATEGORIES_KEY });
      queryClient.invalidateQueries({ queryKey: PREFLIGHT_KEY });
    },
    onError: (e) => toast({ title: "Error", description: serverMessage(e), variant: "destructive" }),
  });

  return (
    <main className="mx-auto max-w-4xl space-y-6 px-4 py-10">
      <header>
        <h1 className="flex items-center gap-2 text-3xl font-bold">
          <Upload className="h-7 w-7 text-brand" aria-hidden /> Upload
        </h1>
        <p className="mt-2 text-slate-400">
          {data.projectTitle ? `Publish “${data.projectTitle}” to YouTube, TikTok and Instagram Reels` : "Publish your video to YouTube, TikTok and Instagram Reels"}
        </p>
      </header>

      <YourVideo videoUrl={data.videoUrl} title={data.projectTitle || "video"} captions={data.preflight.captions} />

      {/* the approved thumbnail is set on the video after the upload */}
      <ThumbnailGenerator />

      {data.uploadRefused ? (
        <section aria-label="Upload to YouTube" className="space-y-3 rounded-xl border border-slate-800 bg-slate-900 p-6">
          <h2 className="text-xl font-semibold">Upload to YouTube</h2>
          <p className="text-slate-300">{data.uploadRefused}</p>
          <Link to="/subscription" className="text-violet-300 underline">
            Go to Subscription
          </Link>
        </section>
      ) : (
        <PlatformPublish
          projectTitle={data.projectTitle}
          videoUrl={data.videoUrl}
          facts={data.platformFacts}
          aiMade={data.aiMade}
          youtube={{
            label: auth.data?.isAuthenticated ? `YouTube · ${auth.data.channelTitle ?? "your channel"}` : "YouTube · not connected",
            ready: Boolean(auth.data?.isAuthenticated),
            render: ({ hideSubmit, submitRef }) =>
              auth.isPending ? (
                <p className="text-slate-400">Checking your YouTube connection...</p>
              ) : auth.data?.isAuthenticated ? (
                <UploadForm
                  projectTitle={data.projectTitle}
                  script={data.script}
                  videoUrl={data.videoUrl}
                  schedule={data.schedule}
                  channelTitle={auth.data.channelTitle}
                  onDisconnect={() => disconnect.mutate()}
                  preflight={data.preflight}
                  aiMade={data.aiMade}
                  hideSubmit={hideSubmit}
                  submitRef={submitRef}
                />
              ) : (
                <ConnectYoutubePrompt status={auth.data} connect={connect} connecting={connecting} />
              ),
          }}
        />
      )}

      <PlatformGuidelines />

      <Link to="/render" className="inline-flex items-center gap-2 text-slate-300 hover:text-white">
        <ArrowLeft className="h-4 w-4" aria-hidden /> Back to Render
      </Link>
    </main>
  );
}
