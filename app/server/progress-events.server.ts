// Server-sent progress events (GET /api/progress-events?stage=…, docs/decisions/132): one stream per open page
// and stage, fed from the progress cache; an event only when the stage's answer changed, and the stream ends
// when the run does. Each event's data is exactly what the stage's polling route answers.
import type { Project } from "~/generated/prisma/client";
import { musicTracksFor } from "./music.server";
import { PROGRESS_INTERVAL_MS, progressCache } from "./progress-cache.server";
import { renderProgressFor } from "./render.server";
import { getScriptStatus } from "./script.server";
import { getGenerateAllProgress, getStoryboardStatus } from "./storyboard.server";
import { youtubeUploadStatusFor } from "./youtube-upload.server";

type StageSource<T> = {
  /** the polling route whose JSON each event carries */
  route: string;
  read: (project: Project) => Promise<T>;
  /** while true the stream stays open; the first answer that says false is sent, then the stream ends */
  active: (answer: T) => boolean;
};

const source = <T>(s: StageSource<T>) => s as StageSource<unknown>;

export const PROGRESS_STAGES = {
  render: source({ route: "/api/render-progress", read: renderProgressFor, active: (p) => p.isActive }),
  script: source({ route: "/api/script-status", read: getScriptStatus, active: (s) => s.status === "processing" }),
  storyboard: source({ route: "/api/storyboard-status", read: getStoryboardStatus, active: (s) => s.status === "processing" }),
  "generate-all": source({
    route: "/api/generate-all-content",
    read: async (project) => ({ progress: await getGenerateAllProgress(project) }),
    active: (a) => !!a.progress?.running,
  }),
  music: source({
    route: "/api/music-tracks",
    read: musicTracksFor,
    active: (tracks) => tracks.some((t) => t.status === "pending" || t.status === "processing"),
  }),
  upload: source({ route: "/api/youtube/upload-status", read: youtubeUploadStatusFor, active: (s) => s.status === "uploading" }),
} as const;

export type ProgressStage = keyof typeof PROGRESS_STAGES;

export function isProgressStage(value: string | null): value is ProgressStage {
  return value !== null && Object.hasOwn(PROGRESS_STAGES, value);
}

export type ProgressStreamOptions = { intervalMs?: number; heartbeatMs?: number };

/**
 * The text/event-stream response for one stage of one (already authorised) project. Events: `progress` (data:
 * the polling route's JSON) whenever the answer changed, then `end` once the run is over; a comment line every
 * `heartbeatMs` keeps proxies from closing an idle stream. Stops when the browser goes (request.signal).
 */
export function progressEventStream(request: Request, project: Project, stage: ProgressStage, options: ProgressStreamOptions = {}): Response {
  const intervalMs = options.intervalMs ?? PROGRESS_INTERVAL_MS;
  const heartbeatMs = options.heartbeatMs ?? 15_000;
  const { read, active } = PROGRESS_STAGES[stage];
  const key = `stage:${stage}:${project.id}`;
  const openedAt = Date.now();
  const encoder = new TextEncoder();
  let stop = () => {};

  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      let closed = false;
      let last: string | null = null;
      let tickTimer: ReturnType<typeof setTimeout> | undefined;
      const send = (text: string) => {
        if (!closed) controller.enqueue(encoder.encode(text));
      };
      const heartbeat = setInterval(() => send(": heartbeat\n\n"), heartbeatMs);
      stop = () => {
        if (closed) return;
        closed = true;
        clearTimeout(tickTimer);
        clearInterval(heartbeat);
        request.signal.removeEventListener("abort", finish);
      };
      const finish = () => {
        if (closed) return;
        stop();
        controller.close();
      };
      request.signal.addEventListener("abort", finish, { once: true });

      const tick = async (first: boolean) => {
        let answer: unknown;
        try {
          // streams of the same project and stage share one read per interval; the first one is read after opening
          answer = await progressCache().read(key, () => read(project), first ? { notBefore: openedAt } : { maxAgeMs: intervalMs });
        } catch (e) {
          console.error(`progress events (${stage}) could not read the status:`, e instanceof Error ? e.message : e);
          return finish(); // the page falls back to polling, which reports what is wrong
        }
        if (closed) return;
        const json = JSON.stringify(answer);
        if (json !== last) send(`event: progress\ndata: ${json}\n\n`);
        last = json;
        if (!active(answer)) {
          send("event: end\ndata: {}\n\n");
          return finish();
        }
        tickTimer = setTimeout(() => void tick(false), intervalMs);
      };
      // a reconnecting browser waits 3 s; the first tick follows at once
      send("retry: 3000\n\n");
      if (request.signal.aborted) finish();
      else void tick(true);
    },
    cancel() {
      stop();
    },
  });

  return new Response(body, {
    headers: {
      "Content-Type": "text/event-stream; charset=utf-8",
      "Cache-Control": "no-store",
      // nginx and similar proxies pass events on at once rather than buffering them
      "X-Accel-Buffering": "no",
    },
  });
}
