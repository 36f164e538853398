// How the web side reaches a creator's providers: the cloud service for each kind whose key they saved, the
// offline one otherwise. Routes go through here rather than importing app/providers themselves.
import { providersFor, type Providers } from "~/providers/index.server";
import { createOpenAICompatibleTextProvider } from "~/providers/text/openai-compatible.server";
import { getProviderKeys } from "./settings.server";

export type { ImageModel } from "~/providers/types";

export async function userProviders(userId: string): Promise<Providers> {
  return providersFor(await getProviderKeys(userId));
}

/**
 * The models an OpenAI-compatible server offers (GET {base}/models), for the settings card's Test Connection.
 * The saved key goes only to the saved base URL: a key typed now goes to the URL typed with it, and a different
 * URL with no key typed gets none, so a saved key is never sent to an address it was not saved for.
 */
export async function listModelServerModels(userId: string, input: { baseUrl?: string; apiKey?: string }): Promise<{ baseUrl: string; models: string[] }> {
  const saved = (await getProviderKeys(userId)).openaiCompatible;
  const baseUrl = input.baseUrl || saved?.baseUrl;
  if (!baseUrl) throw new TypeError("Enter the server's base URL first (for example http://127.0.0.1:11434/v1).");
  const apiKey = input.apiKey || (saved && saved.baseUrl === baseUrl ? saved.apiKey : undefined);
  const server = createOpenAICompatibleTextProvider({ baseUrl, model: saved?.model ?? "unused", apiKey, retry: { attempts: 1, timeoutMs: 10_000 } });
  return { baseUrl, models: await server.listModels() };
}
