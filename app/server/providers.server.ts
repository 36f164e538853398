// How the web side reaches a creator's providers: the cloud service for each kind whose key they saved, the
// offline one otherwise. Routes go through here rather than importing app/providers themselves.
import { providersFor, type Providers } from "~/providers/index.server";
import { getProviderKeys } from "./settings.server";

export type { ImageModel } from "~/providers/types";

export async function userProviders(userId: string): Promise<Providers> {
  return providersFor(await getProviderKeys(userId));
}
