// The creator's journey from a title to a scheduled YouTube upload, stage by stage, through the app's HTTP API as the
// pages call it (decision 120): the browser journey (tests/e2e/journey.e2e.test.ts) without the browser. The project
// and its script run are created with the server functions the /create action and /api/generate-script call, so a
// benchmark can ask for any length (the /create form offers 16:9 only from 5 minutes). Used by bench:journey (60 s)
// and bench:long (5 to 60 minutes).
import sharp from "sharp";
import { FormData, until, type JourneyClient } from "./journey-client";

export type Stage = <T>(name: string, run: () => Promise<T>) => Promise<T>;

export type JourneyOptions = {
  title: string;
  topic: string;
  seconds: number;
  /** replace scene 2's picture with an uploaded photo, as the browser journey does */
  uploadScenePhoto?: boolean;
  /** called with Generate All's answer on every poll (its "done of total") */
  onGenerateAll?: (progress: { completed: number; total: number }) => void;
  /** how long the render may take */
  renderTimeoutMs?: number;
  /** called with the render page's progress on every poll (its percent and elapsed seconds, as the page reads them) */
  onRenderProgress?: (progress: { percent: number; elapsedSeconds: number }) => void;
};

export type JourneyResult = { projectId: string; script: string; cellCount: number; rendered: string; mixed: string; videoId: string; publishAt: string };

export async function runJourney(client: JourneyClient, base: string, stage: Stage, options: JourneyOptions): Promise<JourneyResult> {
  const { call, prisma, user } = client;
  const { createProject } = await import("~/core/projects.server");
  const { startScriptGeneration } = await import("~/server/script.server");
  const { FAKE_CLIENT_ID, FAKE_CLIENT_SECRET } = await import("../../tests/fakes/youtube");
  const { title, topic, seconds } = options;
  const long = { timeoutMs: 4 * 60 * 60_000 };

  let projectId = "";
  const script = await stage("script", async () => {
    const project = await createProject(user.id, { title, topic, resolution: "landscape", durationSeconds: seconds });
    projectId = project.id;
    await prisma.user.update({ where: { id: user.id }, data: { currentProjectId: project.id } });
    await startScriptGeneration(user.id, project, { title, topic, resolution: "16:9", duration: seconds });
    const status = await until("script", () => call<{ status: string; script?: string; error?: string }>("GET", "/api/script-status"), (s) => s.status === "completed" || s.status === "error");
    if (status.status !== "completed") throw new Error(`the script failed: ${status.error}`);
    return status.script!;
  });

  const cellCount = await stage("storyboard", async () => {
    await call("POST", "/api/generate-storyboards", {});
    const status = await until("storyboard", () => call<{ status: string; cellCount: number }>("GET", "/api/storyboard-status"), (s) => s.status === "completed" || s.status === "error");
    if (status.status !== "completed") throw new Error(`the storyboard failed: ${JSON.stringify(status)}`);
    return status.cellCount;
  });

  type Cells = { storyboardCells: { imageUrl?: string | null; audioUrl?: string | null }[] };
  type GenerateAll = { progress: { running: boolean; phase: string; imagesDone: number; imagesTotal: number; voiceoversDone: number; voiceoversTotal: number } | null };
  await stage(`generate all (${cellCount} scenes)`, async () => {
    await call("POST", "/api/generate-all-content");
    await until(
      "generate all",
      () => call<GenerateAll>("GET", "/api/generate-all-content"),
      ({ progress: p }) => p !== null && !p.running && p.phase === "done",
      { ...long, onEach: ({ progress: p }) => p && options.onGenerateAll?.({ completed: p.imagesDone + p.voiceoversDone, total: p.imagesTotal + p.voiceoversTotal }) },
    );
    const cells = await call<Cells>("GET", "/api/storyboards");
    const filled = cells.storyboardCells.filter((cell) => cell.imageUrl && cell.audioUrl).length;
    if (filled !== cellCount) throw new Error(`generate all filled ${filled} of ${cellCount} scenes`);
  });

  if (options.uploadScenePhoto) {
    await stage("scene 2 image replaced by an upload", async () => {
      const png = await sharp({ create: { width: 1920, height: 1080, channels: 3, background: "#1d7bd8" } }).png().toBuffer();
      const form = new FormData();
      form.set("cellIndex", "1");
      form.set("file", new Blob([new Uint8Array(png)], { type: "image/png" }), "my-photo.png");
      await call("POST", "/api/scene-media", form);
    });
  }

  await stage("one music track", async () => {
    await call("POST", "/api/music-tracks/generate", { prompt: "calm ocean ambience with soft piano", trackCount: 1 });
    const tracks = await until("music", () => call<{ status: string; error?: string }[]>("GET", "/api/music-tracks"), (t) => t.length === 1 && (t[0]!.status === "completed" || t[0]!.status === "error"));
    if (tracks[0]!.status !== "completed") throw new Error(`the music track failed: ${tracks[0]!.error}`);
  });

  const rendered = await stage("render 1920x1080", async () => {
    await call("POST", "/api/render-video", {});
    await until("render", () => call<{ isActive: boolean; progress?: number; elapsedTime?: unknown; error?: string | null }>("GET", "/api/render-progress"), (p) => !p.isActive, {
      timeoutMs: options.renderTimeoutMs ?? 30 * 60_000,
      onEach: (p) => {
        if (p.isActive && typeof p.elapsedTime === "number" && typeof p.progress === "number") options.onRenderProgress?.({ percent: p.progress, elapsedSeconds: p.elapsedTime });
      },
    });
    const latest = await call<{ videoUrl: string | null }>("GET", "/api/latest-video");
    if (!latest.videoUrl) throw new Error("the render made no video");
    return latest.videoUrl;
  });

  const mixed = await stage("music mixed in at 10 %", async () => {
    const result = await call<{ videoUrl: string }>("POST", "/api/render-background-music", { volumeLevel: 10 });
    return result.videoUrl;
  });

  await stage("thumbnail generated and approved", async () => {
    const workspace = await call<{ images: { cellIndex: number; imageUrl: string }[] }>("GET", "/api/thumbnails");
    const image = workspace.images[0]!;
    const made = await call<{ thumbnailUrl: string }>("POST", "/api/generate-thumbnail", { imageUrl: image.imageUrl, cellIndex: image.cellIndex, title });
    await call("POST", "/api/approve-thumbnail", { thumbnailUrl: made.thumbnailUrl });
  });

  await stage("YouTube connected", async () => {
    await call("PUT", "/api/config", { googleOAuthClientId: FAKE_CLIENT_ID, googleOAuthClientSecret: FAKE_CLIENT_SECRET });
    const { authUrl } = await call<{ authUrl: string }>("GET", "/api/youtube/oauth/authorize");
    const consent = await fetch(authUrl, { redirect: "manual" });
    const back = new URL(consent.headers.get("location")!);
    const callback = await client.get(`${back.pathname}${back.search}`);
    if (callback.status !== 200) throw new Error(`the OAuth callback answered ${callback.status}: ${(await callback.text()).slice(0, 300)}`);
  });

  const now = new Date();
  const publishAt = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 2, 12)).toISOString();
  const upload = await stage("metadata written, scheduled upload", async () => {
    const metadata = await call<{ description: string; tags: string[] }>("POST", "/api/generate-metadata", { script, title });
    return call<{ videoId: string }>("POST", "/api/youtube/upload", {
      title,
      description: metadata.description,
      tags: metadata.tags,
      privacyStatus: "private",
      categoryId: "27",
      publishAt,
    });
  });
  return { projectId, script, cellCount, rendered, mixed, videoId: upload.videoId, publishAt };
}
