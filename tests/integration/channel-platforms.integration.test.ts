// A channel that posts to YouTube, TikTok and Instagram Reels (issue 52, decision 271), on a real worker and the three
// platforms' fakes: two ideas whose videos are made (as the make-video run leaves them: channels.integration makes
// them for real, minutes of CPU this file does not repeat) go to every account at their slots through the publish
// step's own path (YouTube through the run's upload, TikTok and Instagram through one platform post each), once per
// platform though the step that claims the first one is repeated with its answer lost; at the second slot TikTok no
// longer offers the channel's privacy level, so TikTok refuses that video, says why on the idea, and YouTube and
// Instagram still post it.
import { instagram, tiktok } from "../support/platform-fakes";
import { fake as youtube } from "../support/youtube-fake";
import { createHash, randomBytes } from "node:crypto";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { prisma } from "~/core/db.server";
import { mediaUrl, saveMedia } from "~/core/storage.server";
import { ChannelInputSchema, ChannelKitSchema, optionsFromKit, slotsBetween } from "~/lib/channel";
import { loader as authorizeRoute } from "~/routes/platforms/api.platforms.oauth.authorize";
import { loader as callbackRoute } from "~/routes/platforms/api.platforms.oauth.callback";
import { channelCalendar, createChannel, listIdeas, type IdeaView } from "~/server/channels.server";
import { createChannelActivities } from "../../workflows/activities/channel";
import { channelClockAdvanceSignal, channelWorkflowId } from "../../workflows/shared/channel";
import { makeVideoWorkflowId } from "../../workflows/shared/make-video";
import { connectYoutube, saveOAuthClient } from "../fixtures/youtube-project";
import { createTestUser, sessionCookieFor } from "../support/auth";
import { callRoute } from "../support/routes";
import { startTestWorker } from "../support/temporal";

const APP = "http://localhost:3000";
let worker: Awaited<ReturnType<typeof startTestWorker>>;
beforeAll(async () => {
  worker = await startTestWorker();
});
afterAll(async () => {
  await worker?.stop();
  await Promise.all([youtube.stop(), tiktok.stop(), instagram.stop()]);
  await prisma.$disconnect();
});

/** The browser's connect flow: authorize -> the platform's consent screen (the fake approves) -> the callback. */
async function connect(platform: "tiktok" | "instagram", cookie: string) {
  const auth = await callRoute(authorizeRoute, new Request(`${APP}/api/platforms/${platform}/oauth/authorize`, { headers: { Cookie: cookie } }), { platform });
  const { authUrl } = (await auth.json()) as { authUrl: string };
  const back = (await fetch(authUrl, { redirect: "manual" })).headers.get("location");
  if (!back) throw new Error(`${platform}'s consent screen did not redirect`);
  await callRoute(callbackRoute, new Request(back, { headers: { Cookie: cookie } }), { platform });
}

/**
 * An approved idea in `slotAt` whose video is made, as a finished make-video run leaves it: the script, one scene with
 * its picture and voice, the rendered file (random bytes: the fakes do not decode video), an approved thumbnail.
 */
async function madeIdea(userId: string, channelId: string, kit: Parameters<typeof optionsFromKit>[0], title: string, position: number, slotAt: Date) {
  const project = await prisma.project.create({ data: { userId, title, topic: title.toLowerCase(), resolution: "shorts", durationSeconds: 30 } });
  await prisma.script.create({ data: { projectId: project.id, status: "completed", text: `${title}. A short fact about the ocean.`, targetWords: 12, completedAt: new Date() } });
  await prisma.storyboard.create({
    data: { projectId: project.id, title, status: "completed", cells: { create: [{ cellIndex: 0, imagePrompt: title, voiceoverText: title, estimatedDuration: 30, imageUrl: "/api/media/picture", audioUrl: "/api/media/voice", voiceMadeBy: "Piper" }] } },
  });
  const bytes = randomBytes(300_000);
  const file = await saveMedia({ userId, projectId: project.id, kind: "video", mimeType: "video/mp4", extension: "mp4", data: bytes });
  await prisma.renderedVideo.create({ data: { projectId: project.id, status: "completed", videoUrl: mediaUrl(file), mediaFileId: file.id, width: 1080, height: 1920, durationSeconds: 30, completedAt: new Date() } });
  const png = await sharp({ create: { width: 1280, height: 720, channels: 3, background: "#0f766e" } }).png().toBuffer();
  const image = await saveMedia({ userId, projectId: project.id, kind: "thumbnail", mimeType: "image/png", extension: "png", data: png, width: 1280, height: 720 });
  await prisma.thumbnail.create({ data: { projectId: project.id, thumbnailUrl: mediaUrl(image), mediaFileId: image.id, title, fontFamily: "Bebas Neue", fontSize: 72, approved: true } });
  const options = optionsFromKit(kit, { title, topic: project.topic });
  const run = await prisma.videoRun.create({ data: { userId, projectId: project.id, options, status: "completed", stage: "done", percent: 100, workflowId: makeVideoWorkflowId(project.id), completedAt: new Date() } });
  await prisma.channelIdea.create({ data: { channelId, userId, title, topic: project.topic, position, status: "approved", approvedAt: new Date(), slotAt, runId: run.id } });
  return createHash("sha256").update(bytes).digest("hex");
}

describe("a channel on three platforms", () => {
  it("posts each idea at its slot to YouTube, TikTok and Instagram once each; a refusal stays on its platform", { timeout: 180_000 }, async () => {
    const user = await createTestUser();
    const cookie = await sessionCookieFor(user.id);
    await saveOAuthClient(user.id);
    await connectYoutube(cookie);
    await connect("tiktok", cookie);
    await connect("instagram", cookie);

    const clock = { virtualAtMs: Date.UTC(2030, 0, 5, 12), realAtMs: Date.now(), speed: 1 };
    let offset = 0;
    const channelNow = () => clock.virtualAtMs + (Date.now() - clock.realAtMs) + offset;
    const input = ChannelInputSchema.parse({
      name: "Ocean Facts",
      timeZone: "UTC",
      schedule: [{ day: 2, time: "18:00" }, { day: 4, time: "18:00" }],
      approval: "auto",
      leadHours: 168,
      // the app is not audited by TikTok (the fake's default): its posts can only be "Only me"
      accounts: [{ platform: "youtube" }, { platform: "tiktok", tiktok: { privacyLevel: "SELF_ONLY", allowComment: true, consent: true } }, { platform: "instagram", instagram: { shareToFeed: false } }],
      kit: { format: "9:16", duration: 5, descriptionFooter: "New facts every week.", hashtags: ["ocean", "facts"] },
    });
    const channel = await createChannel(user.id, input, { clock, pollMs: 500 });
    expect(channel.accounts.map((a) => a.label)).toEqual([expect.stringMatching(/^YouTube: /), "TikTok: Fake Bee Channel", "Instagram Reels: fake.bees"]);
    expect(channel.accounts[1]!.tiktok).toEqual({ mode: "direct", privacyLevel: "SELF_ONLY", allowComment: true, allowDuet: false, allowStitch: false, consent: true });
    const handle = worker.client.workflow.getHandle(channelWorkflowId(channel.id));
    const moveClockTo = async (at: number) => {
      const by = at - channelNow();
      offset += by;
      await handle.signal(channelClockAdvanceSignal, by);
    };
    const slot = slotsBetween(input.schedule, "UTC", clock.virtualAtMs, clock.virtualAtMs + 7 * 86400_000).map((d) => d.getTime());
    const kit = ChannelKitSchema.parse(input.kit);
    const sha = [await madeIdea(user.id, channel.id, kit, "Whales sing", 1, new Date(slot[0]!)), await madeIdea(user.id, channel.id, kit, "Octopus hearts", 2, new Date(slot[1]!))];
    const ideas = () => listIdeas(user.id, channel.id, channelNow());
    const waitFor = async (what: string, ok: (list: IdeaView[]) => boolean, realMs: number) => {
      const deadline = Date.now() + realMs;
      for (;;) {
        const list = await ideas();
        if (ok(list)) return list;
        if (Date.now() > deadline) throw new Error(`${what}: ${JSON.stringify(list.map((i) => [i.title, i.status, i.stateLabel, i.posts]))}`);
        await new Promise((r) => setTimeout(r, 400));
      }
    };
    const made = await ideas();
    expect(made.map((i) => [i.slotLabel, i.stateLabel])).toEqual([["Tue 8 Jan, 18:00", "Approved: posts at its slot"], ["Thu 10 Jan, 18:00", "Approved: posts at its slot"]]);
    expect(youtube.videos.size + tiktok.posts.size + instagram.containers.size).toBe(0);

    // the first slot's step runs, but its answer is lost (the workflow never hears of it); run again, it writes
    // nothing new: the same run and the same two posts are handed back
    const step = createChannelActivities().channelStep;
    const first = await step({ channelId: channel.id, userId: user.id, nowMs: slot[0]! });
    expect(first.publish.map((p) => p.ideaId)).toEqual([made[0]!.id]);
    expect(first.posts!.map((p) => p.platform).sort()).toEqual(["instagram", "tiktok"]);
    const again = await step({ channelId: channel.id, userId: user.id, nowMs: slot[0]! + 1000 });
    expect(again.publish).toEqual(first.publish);
    expect(again.posts!.map((p) => p.postId).sort()).toEqual(first.posts!.map((p) => p.postId).sort());
    expect(await prisma.platformPost.count({ where: { userId: user.id } })).toBe(2);

    // the workflow's own step at the slot finds them claimed and not started, and starts each once
    await moveClockTo(slot[0]!);
    const afterFirst = await waitFor("the first idea published on the three", (l) => l[0]!.status === "published" && l[0]!.posts.every((p) => p.state === "published"), 120_000);
    expect(afterFirst[0]!.posts.map((p) => [p.platform, p.state])).toEqual([["youtube", "published"], ["tiktok", "published"], ["instagram", "published"]]);
    expect(afterFirst[0]!.youtubeUrl).toBeTruthy();
    expect(afterFirst[0]!.posts.find((p) => p.platform === "youtube")!.link).toBe(afterFirst[0]!.youtubeUrl);
    expect(afterFirst[0]!.posts.find((p) => p.platform === "instagram")!.link).toBeTruthy();
    // an "Only me" TikTok post has no public id: the idea says so instead of a link
    expect(afterFirst[0]!.posts.find((p) => p.platform === "tiktok")!.label).toMatch(/^Published: no public link yet/);
    expect(youtube.videos.size).toBe(1);
    expect(tiktok.posts.size).toBe(1);
    expect(instagram.published).toHaveLength(1);

    // each platform got the whole video the run made, its caption from the kit, and the channel's options
    const ttPost = [...tiktok.posts.values()][0]!;
    expect(ttPost.sha256).toBe(sha[0]);
    expect(ttPost.postInfo).toMatchObject({ title: "Whales sing\n\nNew facts every week.\n\n#ocean #facts", privacy_level: "SELF_ONLY", disable_comment: false, disable_duet: true, disable_stitch: true });
    const container = [...instagram.containers.values()][0]!;
    expect(container).toMatchObject({ sha256: sha[0], caption: "Whales sing\n\nNew facts every week.\n\n#ocean #facts", shareToFeed: false });
    expect([...youtube.videos.values()][0]!.resource.snippet?.title).toBe("Whales sing");

    // by the second slot the TikTok account offers only public levels: TikTok refuses, the others post
    tiktok.privacyLevelOptions = ["PUBLIC_TO_EVERYONE", "FOLLOWER_OF_CREATOR"];
    await moveClockTo(slot[1]!);
    const done = await waitFor("the second idea published where it could be", (l) => l[1]!.status === "published" && l[1]!.posts.every((p) => p.state !== "posting" && p.state !== "processing"), 120_000);
    const second = done[1]!;
    expect(second.posts.map((p) => [p.platform, p.state])).toEqual([["youtube", "published"], ["tiktok", "failed"], ["instagram", "published"]]);
    expect(second.posts.find((p) => p.platform === "tiktok")!.reason).toBe('This TikTok account does not offer "Only me" any more; choose one of Everyone, Followers.');
    expect(youtube.videos.size).toBe(2);
    expect(tiktok.posts.size).toBe(1);
    expect(instagram.published).toHaveLength(2);

    // a step repeated afterwards posts nothing again; the calendar shows both slots published
    const later = await step({ channelId: channel.id, userId: user.id, nowMs: channelNow() });
    expect([...later.publish, ...(later.posts ?? [])]).toEqual([]);
    await new Promise((r) => setTimeout(r, 1500));
    expect([youtube.videos.size, tiktok.posts.size, instagram.published.length]).toEqual([2, 1, 2]);
    const cal = await channelCalendar(user.id, channel.id, { nowMs: channelNow(), weeks: 1 });
    expect(cal.weeks[0]!.slots.map((s) => [s.label, s.stateLabel, s.idea?.posts.map((p) => p.state)])).toEqual([
      ["Tue 8 Jan, 18:00", "Published", ["published", "published", "published"]],
      // the slot says where the video is missing; the reason is on TikTok's own line
      ["Thu 10 Jan, 18:00", "Published, not on TikTok", ["published", "failed", "published"]],
    ]);
  });
});
