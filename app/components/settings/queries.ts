// The settings screens' reads and the save call, through the app's API client (spec sections 7 and 8).
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { toast } from "~/hooks/use-toast";
import { apiGet, apiRequest, serverMessage } from "~/lib/api-client";
import type { ConfigUpdate } from "~/core/settings.server";
import type { PublicConfig } from "./types";

export const CONFIG_KEY = ["config"] as const;

export function useConfig() {
  return useQuery({ queryKey: CONFIG_KEY, queryFn: () => apiGet<PublicConfig>("/api/config") });
}

/** PUT /api/config; on success the saved config replaces the cached one and `success` is toasted. */
export function useSaveConfig(success: { title: string; description?: string }) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (update: ConfigUpdate) => apiRequest<PublicConfig>("PUT", "/api/config", update),
    onSuccess: (config) => {
      queryClient.setQueryData(CONFIG_KEY, config);
      toast(success);
    },
    onError: (error) => toast({ title: "Save Failed", description: serverMessage(error), variant: "destructive" }),
  });
}

/** Uploads one file as multipart to /api/upload/<field>, in the form field of the same name. */
export function uploadImage<T>(field: "watermark" | "logo" | "favicon", file: File): Promise<T> {
  const form = new FormData();
  form.append(field, file);
  return apiRequest<T>("POST", `/api/upload/${field}`, form);
}

/** Reads a File as a data URL (the older page's uploads). */
export function readAsDataUrl(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error("The file could not be read."));
    reader.readAsDataURL(file);
  });
}
