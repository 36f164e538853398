import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { AiClipsCard } from "~/components/settings/ai-clips-card";
import { ApiKeysCard } from "~/components/settings/api-keys-card";
import { ApiTokensCard } from "~/components/settings/api-tokens-card";
import { WebhooksCard } from "~/components/settings/webhooks-card";
import { BrandingCard } from "~/components/settings/branding-card";
import { ImageModelCard } from "~/components/settings/image-model-card";
import { MaintenanceCard } from "~/components/settings/maintenance-card";
import { ModelServerCard } from "~/components/settings/model-server-card";
import { useConfig } from "~/components/settings/queries";
import { RecentErrorsCard } from "~/components/settings/recent-errors-card";
import { OperationsLink } from "~/components/operations/operations-page";
import { SignedOutNotice } from "~/components/settings/signed-out-notice";
import { UsageTipsCard } from "~/components/settings/usage-tips-card";
import { VoiceCard } from "~/components/settings/voice-card";
import { VoiceUploadCard } from "~/components/settings/voice-upload-card";
import { WatermarkCard } from "~/components/settings/watermark-card";
import { YoutubeCard } from "~/components/settings/youtube-card";
import { PlatformAccountsCard } from "~/components/platforms/platform-accounts-card";
import { serverMessage } from "~/lib/api-client";
import { appOrigin } from "~/server/api.server";
import { getUser } from "~/server/auth.server";
import { isOwner } from "~/core/permissions.server";
import { pageMeta } from "~/lib/meta";

export const meta: MetaFunction = () => pageMeta("Settings · Reelsmith");

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await getUser(request);
  if (!user) return { signedIn: false as const };
  return { signedIn: true as const, isOwner: isOwner(user), origin: appOrigin(request), currentProjectId: user.currentProjectId };
}

export default function Settings() {
  const data = useLoaderData<typeof loader>();
  if (!data.signedIn) return <SignedOutNotice />;
  return <SettingsCards isOwner={data.isOwner} origin={data.origin} currentProjectId={data.currentProjectId} />;
}

function SettingsCards({ isOwner, origin, currentProjectId }: { isOwner: boolean; origin: string; currentProjectId: string | null }) {
  const config = useConfig();
  return (
    <main className="mx-auto grid max-w-4xl gap-6 px-4 py-10">
      <div>
        <h1 className="text-3xl font-bold">API Configuration</h1>
        <p className="mt-2 text-slate-400">Keys, voices, image models, watermark and maintenance for your videos.</p>
        {config.isError ? <p className="mt-2 text-sm text-red-400">Your settings could not be loaded: {serverMessage(config.error)}</p> : null}
      </div>
      <ApiKeysCard config={config.data} />
      <ModelServerCard config={config.data} />
      <YoutubeCard config={config.data} origin={origin} />
      <PlatformAccountsCard origin={origin} />
      <ApiTokensCard />
      <WebhooksCard />
      <VoiceCard config={config.data} />
      {isOwner ? <VoiceUploadCard /> : null}
      <ImageModelCard config={config.data} />
      <AiClipsCard />
      <WatermarkCard config={config.data} />
      {isOwner ? (
        <>
          <BrandingCard config={config.data} />
          <RecentErrorsCard />
          <OperationsLink />
        </>
      ) : null}
      <UsageTipsCard />
      <MaintenanceCard projectId={currentProjectId} />
    </main>
  );
}
