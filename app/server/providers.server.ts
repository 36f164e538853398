// How the web side reaches a creator's providers: the cloud service for each kind whose key they saved, the
// offline one otherwise. Routes go through here rather than importing app/providers themselves.
import { isProviderError, providersFor, type Providers } from "~/providers/index.server";
import { createOpenAICompatibleTextProvider } from "~/providers/text/openai-compatible.server";
import { outboundRefusalIn } from "~/lib/outbound-fetch.server";
import { privateTargetsAllowedFor } from "~/core/permissions.server";
import { getProviderKeys } from "~/core/settings.server";
// the owner's uploaded voices, from media storage, for the offline voice provider (decision 210)
import "~/core/stored-voices.server";

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
  const allowPrivateNetwork = await privateTargetsAllowedFor(userId);
  const server = createOpenAICompatibleTextProvider({ baseUrl, model: saved?.model ?? "unused", apiKey, policy: { timeoutMs: MODEL_SERVER_TEST_TIMEOUT_MS }, allowPrivateNetwork });
  return { baseUrl, models: await server.listModels() };
}

/** How long Test Connection waits for the model list. */
export const MODEL_SERVER_TEST_TIMEOUT_MS = 10_000;

/**
 * Why Test Connection failed, in Reelsmith's own words (decision 196): the status code and what to check, never
 * the other server's body (an address inside someone's network must not become a way to read what answers there).
 */
export function modelServerTestFailure(error: unknown, baseUrl: string | undefined): { status: number; message: string; field: string | null } {
  const refusal = outboundRefusalIn(error);
  if (refusal) return { status: 400, message: refusal.message, field: "baseUrl" };
  const where = baseUrl ? new URL(baseUrl).host : "your saved address";
  if (!isProviderError(error)) return { status: 502, message: `Could not reach the model server at ${where}.`, field: null };
  const http = error.status ? ` (HTTP ${error.status})` : "";
  switch (error.kind) {
    case "auth":
      return { status: 502, message: `The model server at ${where} refused the API key${http}. Check the key, or leave it empty for a server that needs none.`, field: "apiKey" };
    case "rate_limited":
      return { status: 502, message: `The model server at ${where} is limiting requests${http}. Try again in a few minutes.`, field: null };
    case "timeout":
      return { status: 502, message: `The model server at ${where} did not answer within ${MODEL_SERVER_TEST_TIMEOUT_MS / 1000} s.`, field: null };
    case "network":
      return { status: 502, message: `Could not connect to ${where}. Check the address and that the server is running.`, field: "baseUrl" };
    case "malformed":
      return { status: 502, message: `The answer from ${where} is not a model list. Check that the base URL is the server's OpenAI-compatible API (it usually ends in /v1).`, field: "baseUrl" };
    default:
      return error.status && error.status < 500
        ? { status: 502, message: `The model server at ${where} refused the request${http}. Check the base URL (it usually ends in /v1).`, field: "baseUrl" }
        : { status: 502, message: `The model server at ${where} failed${http}. Try again later.`, field: null };
  }
}
