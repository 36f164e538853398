// The same journey as one pipeline (issue 53): the make-video workflow (workflows/make-video.ts) from the title to a
// scheduled upload on the YouTube fake, started with the server function /api/v1/videos calls, its stages read from
// the workflow's progress query every 200 ms. Each stage's start and end are the first poll that saw it running and
// the first that saw it over, as offsets from the start, so stages that run at the same time show it. YouTube is
// connected first (not timed), as a creator would have done before.
import { until, type JourneyClient } from "./journey-client";

export type PipelineStage = { stage: string; state: string; start: number | null; end: number | null };
export type PipelineResult = { total: number; stages: PipelineStage[]; status: string; error: string | null; videoUrl: string | null; youtubeUrl: string | null; publishAt: string };

export async function connectYoutube(client: JourneyClient) {
  const { FAKE_CLIENT_ID, FAKE_CLIENT_SECRET } = await import("../../tests/fakes/youtube");
  await client.call("PUT", "/api/config", { googleOAuthClientId: FAKE_CLIENT_ID, googleOAuthClientSecret: FAKE_CLIENT_SECRET });
  const { authUrl } = await client.call<{ authUrl: string }>("GET", "/api/youtube/oauth/authorize");
  const consent = await fetch(authUrl, { redirect: "manual" });
  const back = new URL(consent.headers.get("location")!);
  const callback = await client.get(`${back.pathname}${back.search}`);
  if (callback.status !== 200) throw new Error(`the OAuth callback answered ${callback.status}: ${(await callback.text()).slice(0, 300)}`);
}

export async function runPipeline(client: JourneyClient, options: { title: string; topic: string; seconds: number; timeoutMs?: number }): Promise<PipelineResult> {
  const { MakeVideoOptionsSchema, startMakeVideo } = await import("~/server/make-video.server");
  const { getTemporalClient } = await import("~/server/temporal.server");
  const { makeVideoProgressQuery, makeVideoWorkflowId } = await import("../../workflows/shared/make-video");
  const now = new Date();
  const publishAt = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 2, 12)).toISOString();
  // the schema's 16:9 minimum is 5 minutes (the /create form's); the benchmark asks for its own length, as bench:journey's
  // stage-by-stage run does through createProject
  const parsed = MakeVideoOptionsSchema.parse({ title: options.title, topic: options.topic, format: "16:9", duration: 300, quality: 1080, music: true, musicVolume: 10, publishAt });
  const runOptions = { ...parsed, duration: options.seconds };

  const temporal = await getTemporalClient();
  const started = performance.now();
  const { id, projectId } = await startMakeVideo(client.user.id, runOptions);
  const handle = temporal.workflow.getHandle(makeVideoWorkflowId(projectId));
  const seen = new Map<string, PipelineStage>();
  const at = () => (performance.now() - started) / 1000;
  const progress = await until(
    "the make-video run",
    async () => {
      try {
        return await handle.query(makeVideoProgressQuery);
      } catch {
        return null; // not picked up by the worker yet
      }
    },
    (p) => p !== null && p.status !== "running" && p.status !== "queued",
    {
      timeoutMs: options.timeoutMs ?? 60 * 60_000,
      everyMs: 200,
      onEach: (p) => {
        if (!p) return;
        const t = at();
        for (const s of p.stages) {
          const row = seen.get(s.stage) ?? { stage: s.stage, state: s.state, start: null, end: null };
          row.state = s.state;
          if (s.state === "running" && row.start === null) row.start = t;
          if ((s.state === "done" || s.state === "failed") && row.end === null) {
            row.start ??= t;
            row.end = t;
          }
          // a stage seen running that found nothing to do (the mix, once the render carries the music) ends there too
          if (s.state === "skipped" && row.start !== null && row.end === null) row.end = t;
          seen.set(s.stage, row);
        }
      },
    },
  );
  const total = at();
  const run = await client.prisma.videoRun.findUniqueOrThrow({ where: { id } });
  return { total, stages: [...seen.values()], status: progress!.status, error: progress!.error, videoUrl: run.videoUrl, youtubeUrl: run.youtubeUrl, publishAt };
}
