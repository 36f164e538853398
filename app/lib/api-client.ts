// The browser's calls to /api, as the spec describes them: cookies always sent, JSON bodies
// (FormData as is), and a failed response becomes an Error "<status>: <body text or status text>".
// Reads that answer 401 give null (signed out, or no data).

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

async function failure(response: Response): Promise<ApiError> {
  const text = await response.text().catch(() => "");
  return new ApiError(response.status, `${response.status}: ${text || response.statusText}`);
}

export async function apiRequest<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
  const init: RequestInit = { method, credentials: "include" };
  if (body instanceof FormData) init.body = body;
  else if (body !== undefined) {
    init.body = JSON.stringify(body);
    init.headers = { "Content-Type": "application/json" };
  }
  const response = await fetch(path, init);
  if (!response.ok) throw await failure(response);
  const type = response.headers.get("Content-Type") ?? "";
  return (type.includes("application/json") ? response.json() : response.text()) as Promise<T>;
}

/** A read: JSON, or null on 401. */
export async function apiGet<T>(path: string): Promise<T | null> {
  const response = await fetch(path, { credentials: "include" });
  if (response.status === 401) return null;
  if (!response.ok) throw await failure(response);
  return response.json() as Promise<T>;
}

/** The server's `message` inside an ApiError's body, when it sent JSON; otherwise the whole message. */
export function serverMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const body = message.replace(/^\d{3}: /, "");
  try {
    const parsed = JSON.parse(body) as { message?: unknown; error?: unknown };
    if (typeof parsed.message === "string") return parsed.message;
    if (typeof parsed.error === "string") return parsed.error;
  } catch {
    /* not JSON */
  }
  return body;
}
