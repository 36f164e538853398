import { useRevalidator } from "@remix-run/react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Palette } from "lucide-react";
import { useRef } from "react";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Label } from "~/components/ui/label";
import { toast } from "~/hooks/use-toast";
import { apiRequest, serverMessage } from "~/lib/api-client";
import { CONFIG_KEY, uploadImage } from "./queries";
import type { PublicConfig } from "./types";

type Branding = { customLogoUrl: string | null; customFaviconUrl: string | null };
const fileInputClass = "text-sm file:mr-3 file:rounded-md file:border-0 file:bg-slate-800 file:px-3 file:py-2 file:text-slate-100";

/** The owner's logo and favicon, shown to every visitor. Refreshes the config and the header's branding. */
export function BrandingCard({ config }: { config: PublicConfig | null | undefined }) {
  const queryClient = useQueryClient();
  const logoInput = useRef<HTMLInputElement>(null);
  const faviconInput = useRef<HTMLInputElement>(null);
  const revalidator = useRevalidator();

  const applyBranding = (branding: Branding) => {
    queryClient.setQueryData<PublicConfig | null>(CONFIG_KEY, (c) => (c ? { ...c, ...branding } : c));
    void queryClient.invalidateQueries({ queryKey: ["global-branding"] });
    // The header and favicon come from the server's loaders: reload them so the new branding shows at once.
    revalidator.revalidate();
  };

  const upload = useMutation({
    mutationFn: ({ field, file }: { field: "logo" | "favicon"; file: File }) => uploadImage<Branding>(field, file),
    onSuccess: (branding, { field }) => {
      applyBranding(branding);
      toast({ title: field === "logo" ? "Logo Uploaded" : "Favicon Uploaded", description: "Every visitor now sees it." });
    },
    onError: (error) => toast({ title: "Upload failed", description: serverMessage(error), variant: "destructive" }),
    onSettled: () => {
      for (const input of [logoInput.current, faviconInput.current]) if (input) input.value = "";
    },
  });

  const removeLogo = useMutation({
    mutationFn: () => apiRequest<Branding & { success: boolean }>("DELETE", "/api/upload-logo"),
    onSuccess: (branding) => {
      applyBranding(branding);
      toast({ title: "Logo Removed", description: "The header shows the product name again." });
    },
    onError: (error) => toast({ title: "Removal failed", description: serverMessage(error), variant: "destructive" }),
  });

  const busy = upload.isPending || removeLogo.isPending;

  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <Palette className="h-5 w-5 text-brand" aria-hidden /> Custom Branding
        </CardTitle>
        <CardDescription>Your logo in the header and your favicon in the browser tab, for every visitor.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-6">
        <div className="grid gap-2">
          <Label htmlFor="logo-file">Logo</Label>
          <input
            ref={logoInput}
            id="logo-file"
            type="file"
            accept=".svg,.png,.jpg,.jpeg,.webp"
            disabled={busy}
            className={fileInputClass}
            onChange={(e) => {
              const file = e.target.files?.[0];
              if (file) upload.mutate({ field: "logo", file });
            }}
          />
          <p className="text-xs text-slate-400">SVG, PNG, JPG or JPEG, 2 MB max. SVG recommended: it stays sharp at any size.</p>
          {config?.customLogoUrl ? (
            <div className="flex items-center gap-4">
              <div className="flex h-16 items-center rounded-md border border-slate-700 bg-slate-950 px-4">
                <img src={config.customLogoUrl} alt="Logo preview" className="max-h-12 max-w-48 object-contain" />
              </div>
              <Button variant="destructive" size="sm" disabled={busy} onClick={() => removeLogo.mutate()}>
                Remove Logo
              </Button>
            </div>
          ) : null}
        </div>
        <div className="grid gap-2">
          <Label htmlFor="favicon-file">Favicon</Label>
          <input
            ref={faviconInput}
            id="favicon-file"
            type="file"
            accept=".ico,.png,.svg,.jpg,.jpeg"
            disabled={busy}
            className={fileInputClass}
            onChange={(e) => {
              const file = e.target.files?.[0];
              if (file) upload.mutate({ field: "favicon", file });
            }}
          />
          {config?.customFaviconUrl ? (
            <div className="flex items-center gap-2 text-sm text-slate-400">
              <img src={config.customFaviconUrl} alt="Favicon preview" className="h-8 w-8 rounded border border-slate-700 object-contain" />
              Current favicon
            </div>
          ) : null}
        </div>
      </CardContent>
    </Card>
  );
}
