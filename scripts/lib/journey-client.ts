// A signed-in creator calling the app's HTTP API as the pages call it, for the benchmarks that go from title to
// video (bench:journey, bench:long): a session cookie made with the session module (the sign-in is a browser form,
// not a stage), JSON bodies with the page's Origin, stages timed and printed one per line. Requests go through an
// undici Agent with no header or body timeout, because some actions answer only when their work is done
// (/api/youtube/upload waits for the video id; a 60-minute video's music mix takes minutes).
import fs from "node:fs";
import path from "node:path";
import { Agent, fetch, FormData } from "undici";

export type JourneyClient = Awaited<ReturnType<typeof signedInClient>>;

const agent = new Agent({ headersTimeout: 0, bodyTimeout: 0 });

/** A creator signed in to the app at `base` (with a fresh user of its own), and the calls a page makes. */
export async function signedInClient(base: string, name: string) {
  const { prisma } = await import("~/core/db.server");
  const { createSession } = await import("~/server/session.server");
  const user = await prisma.user.create({ data: { email: `bench-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`, name } });
  const cookies = new Map<string, string>();
  const keep = (setCookie: string) => cookies.set(setCookie.split("=")[0]!, setCookie.split(";")[0]!);
  keep(await createSession(user.id, { secure: false }));
  const cookieHeader = () => [...cookies.values()].join("; ");

  async function call<T = Record<string, unknown>>(method: string, url: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = { Cookie: cookieHeader(), Origin: base };
    let payload: string | FormData | undefined;
    if (body instanceof FormData) payload = body;
    else if (body !== undefined) {
      headers["Content-Type"] = "application/json";
      payload = JSON.stringify(body);
    }
    const response = await fetch(`${base}${url}`, { method, headers, body: payload, redirect: "manual", dispatcher: agent });
    for (const c of response.headers.getSetCookie()) keep(c);
    const text = await response.text();
    if (response.status >= 400) throw new Error(`${method} ${url}: HTTP ${response.status} ${text.slice(0, 300)}`);
    return (text ? JSON.parse(text) : {}) as T;
  }

  /** GET `url` into `dir/name` (streamed: a 60-minute video is a gigabyte); the file's path. */
  async function download(url: string, dir: string, name: string): Promise<string> {
    const response = await fetch(`${base}${url}`, { headers: { Cookie: cookieHeader() }, dispatcher: agent });
    if (!response.ok || !response.body) throw new Error(`GET ${url}: HTTP ${response.status}`);
    const file = path.join(dir, name);
    const out = fs.createWriteStream(file);
    for await (const chunk of response.body) out.write(chunk);
    await new Promise<void>((resolve, reject) => out.end((e?: Error | null) => (e ? reject(e) : resolve())));
    return file;
  }

  /** A GET the app answers with a redirect or a page (the OAuth callback), with the creator's cookie. */
  const get = (url: string) => fetch(`${base}${url}`, { headers: { Cookie: cookieHeader() }, redirect: "manual", dispatcher: agent });

  return { user, prisma, call, download, get };
}

/** Polls `read` every `everyMs` until `done` says so; throws with the last answer after `timeoutMs`. */
export async function until<T>(what: string, read: () => Promise<T>, done: (value: T) => boolean, { timeoutMs = 15 * 60_000, everyMs = 1000, onEach }: { timeoutMs?: number; everyMs?: number; onEach?: (value: T) => void } = {}): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    onEach?.(value);
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not done after ${timeoutMs / 1000} s; last answer ${JSON.stringify(value).slice(0, 500)}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/**
 * Times stages, printing each as it ends with its start and end as offsets from the first stage's start (the title),
 * so stages that overlap show it: "  name   +12.3 s .. +20.1 s   7.8 s". `stages` keeps them in order.
 */
export function stageTimer(indent = "  ") {
  const stages: [string, number][] = [];
  let origin: number | undefined;
  async function stage<T>(name: string, run: () => Promise<T>): Promise<T> {
    const started = performance.now();
    origin ??= started;
    const result = await run();
    const ended = performance.now();
    const seconds = (ended - started) / 1000;
    stages.push([name, seconds]);
    console.log(stageLine(indent, name, (started - origin) / 1000, (ended - origin) / 1000));
    return result;
  }
  return { stage, stages };
}

/** One stage's line: its name, start and end (seconds from the title) and length. */
export function stageLine(indent: string, name: string, start: number, end: number): string {
  const at = (s: number) => `+${s.toFixed(1)}`.padStart(7);
  return `${indent}${name.padEnd(34)} ${at(start)} s .. ${at(end)} s ${(end - start).toFixed(1).padStart(7)} s`;
}

export { FormData };
