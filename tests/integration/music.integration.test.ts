// The music stage end to end on a real Postgres and Temporal: tracks generated with the Suno fake (by polling,
// and woken by Suno's callback) and with the offline composer, failed tracks, deleting, the free plan's refusal,
// and mixing music into a video (video packets copied, loudness per volume, length kept).
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { MusicProvider } from "~/providers/types";
import { callRoute } from "../support/routes";

vi.hoisted(() => {
  // billing on: a user without a subscription is free; tests subscribe the users who may use music
  process.env.STRIPE_SECRET_KEY = "sk_test_music";
});

const { prisma } = await import("~/core/db.server");
const { createSunoMusicProvider } = await import("~/providers/music/suno.server");
const { createOfflineMusicProvider } = await import("~/providers/music/offline.server");
const { mediaFilePath, mediaIdFromUrl, mediaSize } = await import("~/core/storage.server");
const { startMusicGeneration } = await import("~/server/music.server");
const { createMusicActivities } = await import("../../workflows/activities/music");
const { prepareRenderPlan } = await import("../../workflows/activities/render");
const tracksRoute = await import("~/routes/music/api.music-tracks");
const generateRoute = await import("~/routes/music/api.music-tracks.generate");
const trackRoute = await import("~/routes/music/api.music-tracks.$id");
const volumeRoute = await import("~/routes/music/api.music-volume");
const mixRoute = await import("~/routes/music/api.render-background-music");
const callbackRoute = await import("~/routes/music/api.suno-callback");
const { FakeSuno } = await import("../fakes/suno");
const { QUICK_POLICY } = await import("../fakes/contract");
const { createTestUser, sessionCookieFor } = await import("../support/auth");
const { startTestWorker } = await import("../support/temporal");
const { seedRenderableProject } = await import("../fixtures/render-project");
const { seedRenderedVideo } = await import("../fixtures/music-project");
const { meanVolumeDb, probeVideo } = await import("../fixtures/video-probe");
const { measureLoudness } = await import("../../workflows/engine/loudness");

const run = promisify(execFile);
const fake = new FakeSuno("suno-music-key");
let music: MusicProvider;
let stopWorker: () => Promise<void>;

beforeAll(async () => {
  await fake.start();
  const activities = createMusicActivities({ providersFor: async () => ({ music }) });
  const worker = await startTestWorker({ activities: activities as never });
  stopWorker = worker.stop;
}, 60_000);
afterAll(async () => {
  await stopWorker?.();
  await fake.stop();
  await prisma.$disconnect();
});

const BASE = "http://localhost:3000";
const request = (path: string, cookie: string, init: { method?: string; body?: unknown } = {}) =>
  new Request(`${BASE}${path}`, {
    method: init.method ?? "GET",
    headers: { Cookie: cookie, ...(init.body !== undefined ? { "Content-Type": "application/json" } : {}) },
    body: init.body !== undefined ? JSON.stringify(init.body) : undefined,
  });

const suno = () => createSunoMusicProvider({ apiKey: fake.apiKey, baseUrl: fake.url, callbackUrl: `${BASE}/api/suno-callback`, policy: QUICK_POLICY });

async function premiumUser(options: { durationSeconds?: number } = {}) {
  const user = await createTestUser();
  await prisma.subscription.create({
    data: { userId: user.id, stripeCustomerId: `cus_${user.id}`, status: "active", currentPeriodEnd: new Date(Date.now() + 86_400_000) },
  });
  const { projectId } = await seedRenderableProject({ userId: user.id, sceneSeconds: [0.5] });
  if (options.durationSeconds) await prisma.project.update({ where: { id: projectId }, data: { durationSeconds: options.durationSeconds } });
  return { user, projectId, cookie: await sessionCookieFor(user.id) };
}

/** Samples the tracks' statuses until all are final; returns the distinct statuses seen, in order. */
async function watchStatuses(projectId: string, timeoutMs = 60_000): Promise<string[]> {
  const seen: string[] = [];
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const rows = await prisma.musicTrack.findMany({ where: { projectId } });
    for (const row of rows) if (seen.at(-1) !== row.status && !seen.includes(row.status)) seen.push(row.status);
    if (rows.length > 0 && rows.every((r) => r.status === "completed" || r.status === "error")) return seen;
    if (Date.now() > deadline) throw new Error(`tracks still ${rows.map((r) => r.status).join(", ")} (seen ${seen.join(" -> ")})`);
    await new Promise((r) => setTimeout(r, 40));
  }
}

describe("generating tracks", () => {
  it("with Suno by polling: pending -> processing -> completed, stored with title, audio and duration", async () => {
    music = suno();
    fake.pendingPolls = 2;
    fake.failTasks = false;
    const { user, projectId, cookie } = await premiumUser();
    await startMusicGeneration(user.id, { prompt: "warm acoustic guitar", trackCount: 2 }, { pollIntervalMs: 400 });
    expect(await watchStatuses(projectId)).toEqual(["pending", "processing", "completed"]);

    const tracks = (await (await callRoute(tracksRoute.loader, request("/api/music-tracks", cookie))).json()) as { title: string; status: string; audioUrl: string; duration: number; prompt: string }[];
    expect(tracks).toHaveLength(2);
    for (const track of tracks) {
      expect(track).toMatchObject({ status: "completed", prompt: "warm acoustic guitar", duration: 3.5 });
      expect(track.title).toMatch(/^Fake Song [12]$/);
      const file = await prisma.mediaFile.findUniqueOrThrow({ where: { id: mediaIdFromUrl(track.audioUrl)! } });
      expect(file.kind).toBe("music");
      expect(await mediaSize(file)).toBeGreaterThan(1000);
    }
  }, 60_000);

  it("with Suno's callback: the run polls at once instead of waiting for its next poll", async () => {
    music = suno();
    fake.pendingPolls = 1;
    const { user, projectId } = await premiumUser();
    // a poll interval far longer than the test: only the callback can make it finish in time
    await startMusicGeneration(user.id, { prompt: "upbeat synthwave", trackCount: 1 }, { pollIntervalMs: 120_000 });
    let row = await prisma.musicTrack.findFirstOrThrow({ where: { projectId } });
    for (let i = 0; i < 100 && !row.externalTaskId; i++) {
      await new Promise((r) => setTimeout(r, 100));
      row = await prisma.musicTrack.findFirstOrThrow({ where: { projectId } });
    }
    const taskId = row.externalTaskId!.split(":")[2]!;
    // wait until the first poll (pending) has happened
    await expect.poll(() => fake.tasks.get(taskId)?.polls ?? 0, { timeout: 10_000 }).toBeGreaterThanOrEqual(1);

    const started = Date.now();
    const callback = await callRoute(
      callbackRoute.action,
      new Request(`${BASE}/api/suno-callback`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ code: 200, msg: "All generated successfully.", data: { callbackType: "complete", task_id: taskId, data: [] } }),
      }),
    );
    expect(callback.status).toBe(200);
    expect(await watchStatuses(projectId, 15_000)).toContain("completed");
    expect(Date.now() - started).toBeLessThan(15_000);
  }, 60_000);

  it("answers 404 to a callback for a task nobody waits for, and 400 to a body that is not Suno's", async () => {
    const unknown = await callRoute(
      callbackRoute.action,
      new Request(`${BASE}/api/suno-callback`, { method: "POST", body: JSON.stringify({ code: 200, msg: "ok", data: { callbackType: "complete", task_id: "nope", data: [] } }) }),
    );
    expect(unknown.status).toBe(404);
    const malformed = await callRoute(callbackRoute.action, new Request(`${BASE}/api/suno-callback`, { method: "POST", body: JSON.stringify({ hello: 1 }) }));
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toHaveProperty("message");
  });

  it("with the offline composer through the route: two tracks, WAV files as long as the video", async () => {
    music = createOfflineMusicProvider();
    const { projectId, cookie } = await premiumUser({ durationSeconds: 5 });
    const response = await callRoute(generateRoute.action, request("/api/music-tracks/generate", cookie, { method: "POST", body: { prompt: "  calm piano morning  ", trackCount: 2 } }));
    expect(response.status).toBe(202);
    const body = (await response.json()) as { tracks: { status: string; prompt: string }[] };
    expect(body.tracks.map((t) => t.status)).toEqual(["pending", "pending"]);
    expect(body.tracks[0]!.prompt).toBe("calm piano morning");
    expect(await watchStatuses(projectId, 120_000)).toEqual(["pending", "processing", "completed"]);
    const rows = await prisma.musicTrack.findMany({ where: { projectId }, orderBy: { createdAt: "asc" } });
    expect(rows.map((r) => r.title)).toEqual(["Calm Piano Morning (1)", "Calm Piano Morning (2)"]);
    for (const row of rows) {
      expect(row.duration).toBe(5);
      const file = await prisma.mediaFile.findUniqueOrThrow({ where: { id: row.mediaFileId! } });
      const { stdout } = await run("ffprobe", ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", mediaFilePath(file)]);
      expect(Number(stdout)).toBeCloseTo(5, 0);
    }
  }, 150_000);

  it("a failed task leaves its tracks in error with the service's reason", async () => {
    music = suno();
    fake.pendingPolls = 1;
    fake.failTasks = true;
    const { user, projectId, cookie } = await premiumUser();
    await startMusicGeneration(user.id, { prompt: "doomed", trackCount: 1 }, { pollIntervalMs: 300 });
    expect((await watchStatuses(projectId)).at(-1)).toBe("error");
    fake.failTasks = false;
    const [track] = (await (await callRoute(tracksRoute.loader, request("/api/music-tracks", cookie))).json()) as { status: string; error: string; audioUrl: null }[];
    expect(track).toMatchObject({ status: "error", audioUrl: null });
    expect(track!.error).toMatch(/Audio generation failed/);
  }, 60_000);

  it("validates the body: an empty prompt and a sixth track are refused with a message and the field", async () => {
    const { cookie } = await premiumUser();
    const empty = await callRoute(generateRoute.action, request("/api/music-tracks/generate", cookie, { method: "POST", body: { prompt: "   ", trackCount: 1 } }));
    expect(empty.status).toBe(400);
    expect(await empty.json()).toEqual({ message: "prompt: Please enter a music prompt to generate tracks.", field: "prompt" });
    const six = await callRoute(generateRoute.action, request("/api/music-tracks/generate", cookie, { method: "POST", body: { prompt: "x", trackCount: 6 } }));
    expect(six.status).toBe(400);
    expect(await six.json()).toMatchObject({ field: "trackCount" });
  });
});

describe("deleting a track", () => {
  it("removes the row and its file; another user gets 404 and the track stays", async () => {
    const { user, cookie } = await premiumUser();
    await seedRenderableProject({ userId: user.id, sceneSeconds: [0.5], musicSeconds: 2 });
    const track = await prisma.musicTrack.findFirstOrThrow({ where: { project: { userId: user.id } } });
    const file = await prisma.mediaFile.findUniqueOrThrow({ where: { id: track.mediaFileId! } });

    const stranger = await premiumUser();
    const refused = await callRoute(trackRoute.action, request(`/api/music-tracks/${track.id}`, stranger.cookie, { method: "DELETE" }), { id: track.id });
    expect(refused.status).toBe(404);
    expect(await prisma.musicTrack.count({ where: { id: track.id } })).toBe(1);

    const deleted = await callRoute(trackRoute.action, request(`/api/music-tracks/${track.id}`, cookie, { method: "DELETE" }), { id: track.id });
    expect(deleted.status).toBe(200);
    expect(await prisma.musicTrack.count({ where: { id: track.id } })).toBe(0);
    expect(await mediaSize(file)).toBeNull();
  });
});

describe("free accounts", () => {
  it("are refused generation, volume and mixing, with a pointer to the subscription page", async () => {
    const user = await createTestUser();
    await seedRenderableProject({ userId: user.id, sceneSeconds: [0.5], musicSeconds: 2 });
    const cookie = await sessionCookieFor(user.id);
    const calls = [
      await callRoute(generateRoute.action, request("/api/music-tracks/generate", cookie, { method: "POST", body: { prompt: "jazz", trackCount: 1 } })),
      await callRoute(volumeRoute.action, request("/api/music-volume", cookie, { method: "POST", body: { volume: 20 } })),
      await callRoute(mixRoute.action, request("/api/render-background-music", cookie, { method: "POST", body: { volumeLevel: 20 } })),
    ];
    for (const response of calls) {
      expect(response.status).toBe(402);
      expect(((await response.json()) as { message: string }).message).toBe(
        "Background music is a Premium feature. Upgrade to Premium on the Subscription page (/subscription) to unlock it.",
      );
    }
    expect(await prisma.musicTrack.count({ where: { prompt: "jazz" } })).toBe(0);
  });

  it("get no music layer in their render, while a premium account's render has it at the saved volume", async () => {
    const free = await createTestUser();
    const freeProject = await seedRenderableProject({ userId: free.id, sceneSeconds: [0.5], musicSeconds: 2, musicVolume: 30 });
    const plan = await prepareRenderPlan({ renderId: "r", userId: free.id, projectId: freeProject.projectId, width: 320, height: 180, captions: false });
    expect(plan.music).toBeNull();

    const { user } = await premiumUser();
    const premiumProject = await seedRenderableProject({ userId: user.id, sceneSeconds: [0.5], musicSeconds: 2, musicVolume: 30 });
    const premiumPlan = await prepareRenderPlan({ renderId: "r", userId: user.id, projectId: premiumProject.projectId, width: 320, height: 180, captions: false });
    expect(premiumPlan.music).toMatchObject({ volume: 0.3 });
  });
});

describe("mixing music into the latest video", () => {
  async function packets(file: string) {
    const { stdout } = await run("ffprobe", ["-v", "error", "-select_streams", "v", "-show_packets", "-show_data_hash", "md5", "-show_entries", "packet=pts,dts,data_hash", "-of", "csv", file]);
    return stdout.trim().split("\n");
  }
  /** Mean loudness of one frequency band (a narrow band-pass around `hz`) between `from` and `from + seconds`. */
  async function bandVolumeDb(file: string, hz: number, from: number, seconds: number) {
    const { stderr } = await run("ffmpeg", ["-hide_banner", "-nostats", "-ss", String(from), "-t", String(seconds), "-i", file, "-vn", "-af", `bandpass=f=${hz}:width_type=q:w=8,bandpass=f=${hz}:width_type=q:w=8,volumedetect`, "-f", "null", "-"]);
    return Number(/mean_volume: (-?[\d.]+) dB/.exec(stderr)![1]);
  }
  const fileOf = async (url: string) => mediaFilePath(await prisma.mediaFile.findUniqueOrThrow({ where: { id: mediaIdFromUrl(url)! } }));

  it("copies the video stream, keeps the length and the voice, and sets the music's loudness by the volume", async () => {
    const { user, cookie } = await premiumUser();
    await seedRenderableProject({ userId: user.id, sceneSeconds: [0.5], musicSeconds: 1.5 });
    const project = await prisma.project.findFirstOrThrow({ where: { userId: user.id }, orderBy: { createdAt: "desc" } });
    const render = await seedRenderedVideo({ userId: user.id, projectId: project.id, seconds: 4, voiceSeconds: 1 });
    const original = await fileOf(render.videoUrl!);

    const mix = async (volumeLevel: number) => {
      const response = await callRoute(mixRoute.action, request("/api/render-background-music", cookie, { method: "POST", body: { volumeLevel } }));
      expect(response.status).toBe(200);
      const body = (await response.json()) as { videoUrl: string; volumeLevel: number };
      expect(body.volumeLevel).toBe(volumeLevel);
      return fileOf(body.videoUrl);
    };

    // each mix replaces the previous one, so each is measured as soon as it is made
    const musicOnly = (f: string) => meanVolumeDb(f, 1.6, 1.2);
    const voiceBand = (f: string) => bandVolumeDb(f, 440, 0.1, 0.8);
    // each mix is brought to the platform's loudness (decision 190): the volume sets the music against the voice
    const musicAgainstVoice = async (f: string) => (await musicOnly(f)) - (await voiceBand(f));
    const silentDb = await musicOnly(await mix(0));
    const quietDb = await musicAgainstVoice(await mix(25));
    const half = await mix(50);

    // the video stream is the original's, packet for packet
    expect(await packets(half)).toEqual(await packets(original));
    const facts = await probeVideo(half);
    const before = await probeVideo(original);
    expect(facts.video.durationSeconds).toBeCloseTo(before.video.durationSeconds, 2);
    expect(facts.audio!.durationSeconds).toBeCloseTo(4, 1);

    // the voice (440 Hz) keeps its place; the music (196 Hz) is ducked under it; the music-only stretch (after
    // the voice, before the fade-out) follows the volume, against the voice.
    // The mix is brought to the platform's loudness after the ducking (decision 190), voice and music by one gain
    // (tests/integration/delivery-loudness checks the balance is kept); the voice stays clearly audible
    expect(await voiceBand(half)).toBeGreaterThan(-30);
    const delivered = await measureLoudness(half);
    expect(Math.abs(delivered.integratedLufs - -14)).toBeLessThanOrEqual(1);
    expect(delivered.truePeakDbtp).toBeLessThanOrEqual(-1);
    const duckedDb = (await bandVolumeDb(half, 196, 1.6, 1.2)) - (await bandVolumeDb(half, 196, 0.2, 0.7));
    expect(duckedDb).toBeGreaterThan(6);
    expect(silentDb).toBeLessThan(-80);
    expect(await musicOnly(half)).toBeGreaterThan(-45);
    // half the gain is 6 dB quieter against the voice
    expect((await musicAgainstVoice(half)) - quietDb).toBeCloseTo(6.02, 0);

    // the render is kept; earlier mixes are replaced by the newest one; the volume is saved
    expect(await mediaSize({ storageKey: (await prisma.mediaFile.findUniqueOrThrow({ where: { id: render.mediaFileId! } })).storageKey })).not.toBeNull();
    const videos = await prisma.renderedVideo.findMany({ where: { projectId: project.id }, orderBy: { createdAt: "asc" } });
    expect(videos.map((v) => [v.baseVideoId === null, v.withMusic, v.volumeLevel])).toEqual([
      [true, false, null],
      [false, true, 50],
    ]);
    expect((await prisma.project.findUniqueOrThrow({ where: { id: project.id } })).musicVolume).toBe(50);

    // deleting the track keeps the mixed video playable: it has its own file
    const track = await prisma.musicTrack.findFirstOrThrow({ where: { projectId: project.id } });
    await callRoute(trackRoute.action, request(`/api/music-tracks/${track.id}`, cookie, { method: "DELETE" }), { id: track.id });
    expect((await probeVideo(half)).audio).not.toBeNull();
  }, 120_000);

  it("rebuilds the voice from the scene voiceovers when the render already carries music, so music never doubles", async () => {
    const { user, cookie } = await premiumUser();
    // two voiceovers: 1 s at 330 Hz from 0 s, 1 s at 440 Hz from the second scene's start (1.5 s)
    const { projectId } = await seedRenderableProject({ userId: user.id, sceneSeconds: [1, 1], musicSeconds: 1.5 });
    const render = await seedRenderedVideo({ userId: user.id, projectId, seconds: 3, voiceSeconds: 3 });
    await prisma.renderedVideo.update({ where: { id: render.id }, data: { withMusic: true, volumeLevel: 5 } });

    const response = await callRoute(mixRoute.action, request("/api/render-background-music", cookie, { method: "POST", body: { volumeLevel: 0 } }));
    expect(response.status).toBe(200);
    const mixed = await fileOf(((await response.json()) as { videoUrl: string }).videoUrl);
    const original = await fileOf(render.videoUrl!);
    expect(await packets(mixed)).toEqual(await packets(original));
    // the render's own audio (a steady 440 Hz tone standing in for "voice + old music") is gone: the first scene's
    // voiceover (330 Hz) plays alone, the second scene's (440 Hz) from 1.5 s
    expect(await bandVolumeDb(mixed, 330, 0.2, 0.6)).toBeGreaterThan(-30);
    expect(await bandVolumeDb(mixed, 440, 0.2, 0.6)).toBeLessThan((await bandVolumeDb(original, 440, 0.2, 0.6)) - 10);
    expect(await bandVolumeDb(mixed, 440, 1.7, 0.6)).toBeGreaterThan(-30);
  }, 60_000);

  it("says what to do without a rendered video, and refuses a volume above 100", async () => {
    const { user, cookie } = await premiumUser();
    await seedRenderableProject({ userId: user.id, sceneSeconds: [0.5], musicSeconds: 1 });
    const noVideo = await callRoute(mixRoute.action, request("/api/render-background-music", cookie, { method: "POST", body: { volumeLevel: 10 } }));
    expect(noVideo.status).toBe(400);
    expect(((await noVideo.json()) as { message: string }).message).toMatch(/Render the video on the Render page first/);
    const tooLoud = await callRoute(mixRoute.action, request("/api/render-background-music", cookie, { method: "POST", body: { volumeLevel: 101 } }));
    expect(tooLoud.status).toBe(400);
    expect(await tooLoud.json()).toEqual({ message: "volumeLevel: volumeLevel can be at most 100", field: "volumeLevel" });
  });
});
