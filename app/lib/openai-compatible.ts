// The OpenAI-compatible (Chat Completions) server a creator names in Settings: how its base URL is checked and
// stored, shared by the settings card (browser) and the server. Pure.

/** Where the popular servers listen; shown as examples on the settings card. */
export const OPENAI_COMPATIBLE_EXAMPLES = [
  { name: "OpenAI", baseUrl: "https://api.openai.com/v1", model: "gpt-4o-mini" },
  { name: "Ollama", baseUrl: "http://127.0.0.1:11434/v1", model: "llama3.2" },
  { name: "LM Studio", baseUrl: "http://127.0.0.1:1234/v1", model: "qwen2.5-7b-instruct" },
  { name: "vLLM", baseUrl: "http://127.0.0.1:8000/v1", model: "meta-llama/Llama-3.1-8B-Instruct" },
  { name: "OpenRouter", baseUrl: "https://openrouter.ai/api/v1", model: "openai/gpt-4o-mini" },
] as const;

/**
 * A base URL as it is stored and called: http or https, no credentials, query or fragment, no trailing slash.
 * Throws a TypeError whose message says what to fix.
 */
export function normalizeBaseUrl(input: string): string {
  let url: URL;
  try {
    url = new URL(input.trim());
  } catch {
    throw new TypeError("The base URL must be a web address such as http://127.0.0.1:11434/v1.");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new TypeError("The base URL must start with http:// or https://.");
  if (url.username || url.password) throw new TypeError("Put the key in the API key field, not in the base URL.");
  if (url.search || url.hash) throw new TypeError("The base URL takes no query (?...) or fragment (#...).");
  return url.toString().replace(/\/+$/, "");
}
