import { Youtube } from "lucide-react";
import { useState } from "react";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { toast } from "~/hooks/use-toast";
import { useSaveConfig } from "./queries";
import { fieldsToSave } from "./secret-fields";
import { SecretInput } from "./secret-input";
import type { PublicConfig } from "./types";

export const YOUTUBE_CALLBACK_PATH = "/api/youtube/oauth/callback";
export const LEONARDO_WEBHOOK_PATH = "/api/leonardo-webhook";

export function YoutubeCard({ config, origin }: { config: PublicConfig | null | undefined; origin: string }) {
  const [clientId, setClientId] = useState("");
  const [clientSecret, setClientSecret] = useState("");
  const save = useSaveConfig({ title: "OAuth Credentials Saved", description: "You can now connect YouTube on the Upload page." });

  function submit(e: React.FormEvent) {
    e.preventDefault();
    const update = fieldsToSave({ googleOAuthClientId: clientId, googleOAuthClientSecret: clientSecret });
    if (Object.keys(update).length === 0) {
      toast({ title: "No OAuth Credentials to Save", description: "Please enter OAuth Client ID and Secret to save.", variant: "destructive" });
      return;
    }
    save.mutate(update, {
      onSuccess: () => {
        setClientId("");
        setClientSecret("");
      },
    });
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <Youtube className="h-5 w-5 text-red-500" aria-hidden /> YouTube Upload Integration
        </CardTitle>
        <CardDescription>
          Your own Google OAuth client lets Reelsmith upload to your channel: save it here, then connect YouTube and upload (or schedule) on the Upload
          page.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-6">
        <form className="grid gap-4" onSubmit={submit}>
          <div className="grid gap-2">
            <Label htmlFor="googleOAuthClientId">OAuth Client ID</Label>
            <Input
              id="googleOAuthClientId"
              autoComplete="off"
              placeholder={config?.googleOAuthClientId ?? "123456789-abc.apps.googleusercontent.com"}
              value={clientId}
              onChange={(e) => setClientId(e.target.value)}
            />
          </div>
          <SecretInput
            id="googleOAuthClientSecret"
            label="OAuth Client Secret"
            hint="Enter your OAuth client secret"
            savedLength={config?.googleOAuthClientSecretLength}
            value={clientSecret}
            onChange={setClientSecret}
          />
          <Button type="submit" disabled={save.isPending} className="justify-self-start">
            {save.isPending ? "Saving..." : "Save OAuth Credentials"}
          </Button>
        </form>
        <div className="rounded-lg border border-slate-800 bg-slate-950 p-4 text-sm">
          <h3 className="mb-2 font-semibold">Setup steps</h3>
          <ol className="list-decimal space-y-2 pl-5 text-slate-300">
            <li>In the Google Cloud Console, create a project and enable the YouTube Data API v3.</li>
            <li>Configure the OAuth consent screen and add your Google account as a test user (or publish the app).</li>
            <li>
              Create an OAuth client ID of type &quot;Web application&quot; with this authorised redirect URI:
              <code className="mt-1 block break-all rounded bg-slate-900 px-2 py-1 text-emerald-300">{`${origin}${YOUTUBE_CALLBACK_PATH}`}</code>
            </li>
            <li>Paste the client ID and secret above and save.</li>
            <li>
              Not needed for uploads, nor for Leonardo today: Reelsmith asks Leonardo for each image until it is ready, so no webhook has to be set.
              The address reserved for Leonardo&apos;s callbacks, which does not take them yet, is:
              <code className="mt-1 block break-all rounded bg-slate-900 px-2 py-1 text-emerald-300">{`${origin}${LEONARDO_WEBHOOK_PATH}`}</code>
            </li>
          </ol>
        </div>
      </CardContent>
    </Card>
  );
}
