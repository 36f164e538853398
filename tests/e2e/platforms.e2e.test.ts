// The publish step in Chromium against the built app, whose YouTube, TikTok and Instagram endpoints are the local
// fakes (tests/fakes/youtube-server.ts and platforms-server.ts, started by the test harness): TikTok and Instagram
// are connected in Settings and YouTube on the Upload page, each through its consent popup; ONE chooser lists the
// three; the TikTok panel shows the account's nickname, a privacy choice with no default, the interaction switches,
// the consent line, that the unaudited app's posts stay private, and its AI-generated label (on: an AI voice spoke the
// narration). One 30-second 9:16 Short goes to all three now: each fake receives the whole file (SHA-256), the caption
// and the options chosen, and the page shows each post's state and link. Another Short is scheduled on all three,
// one post moved to another time, then posted now.
import { createHash } from "node:crypto";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FAKE_CLIENT_ID, FAKE_CLIENT_SECRET } from "../fakes/youtube";
import { baseUrl, launchChromium } from "../support/browser";
import { signIn } from "../support/browser-auth";
import { shootBoth } from "../support/screenshots";

process.env.DATABASE_URL = process.env.E2E_DATABASE_URL;
process.env.DATA_DIR = process.env.E2E_DATA_DIR;
const { prisma } = await import("~/core/db.server");
const { mediaUrl, saveMedia, saveMediaFromPath } = await import("~/core/storage.server");
const { sceneImage } = await import("../fixtures/render-project");

let browser: Browser;
let context: BrowserContext;
let page: Page;
const email = `poster-${Date.now()}@example.com`;

type Fakes = {
  youtube: { videos: { sha256: string; resource: { snippet: { title: string }; status: { privacyStatus: string; publishAt?: string; containsSyntheticMedia?: boolean } } }[] };
  tiktok: { posts: { sha256: string; postInfo: Record<string, unknown> }[] };
  instagram: { containers: { id: string; sha256: string; caption: string; shareToFeed: boolean }[]; published: { containerId: string }[] };
};
const fakeState = async (): Promise<Fakes> => {
  const read = async (url: string | undefined) => (await fetch(`${url}/__fake/state`)).json();
  const [youtube, tiktok, instagram] = await Promise.all([read(process.env.E2E_YOUTUBE_FAKE_URL), read(process.env.E2E_TIKTOK_FAKE_URL), read(process.env.E2E_INSTAGRAM_FAKE_URL)]);
  return { youtube, tiktok, instagram } as Fakes;
};
/** What the fakes hold of this test's two Shorts (by their bytes): the e2e app's other tests post to the same fakes. */
const ours = async () => {
  const state = await fakeState();
  const shas = new Set([first.sha, second.sha]);
  const containers = state.instagram.containers.filter((c) => shas.has(c.sha256));
  const ids = new Set(containers.map((c) => c.id));
  return {
    youtube: state.youtube.videos.filter((v) => shas.has(v.sha256)),
    tiktok: state.tiktok.posts.filter((p) => shas.has(p.sha256)),
    containers,
    published: state.instagram.published.filter((p) => ids.has(p.containerId)),
  };
};

/** A 30-second 360x640 Short at 30 fps whose narration an AI voice spoke, rendered as the renderer would store it. */
async function seedShort(userId: string, title: string, tone: number) {
  const project = await prisma.project.create({ data: { userId, title, topic: "How bees share directions", resolution: "shorts", durationSeconds: 30 } });
  // a real scene picture: the page's thumbnail maker offers it as its base image
  const picture = await saveMedia({ userId, projectId: project.id, kind: "image", data: await sceneImage(tone % 7, 360, 640), mimeType: "image/png", extension: "png", width: 360, height: 640 });
  await prisma.storyboard.create({
    data: {
      projectId: project.id,
      title,
      status: "completed",
      cells: { create: [{ cellIndex: 0, imagePrompt: "bees", voiceoverText: "Bees dance.", estimatedDuration: 30, audioUrl: "/api/media/voice", voiceMadeBy: "ElevenLabs", imageUrl: mediaUrl(picture), imageMadeBy: "Offline illustration" }] },
    },
  });
  const file = path.join(os.tmpdir(), `reelsmith-e2e-platforms-${Date.now()}-${tone}.mp4`);
  execFileSync("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=360x640:rate=30", "-f", "lavfi", "-i", `sine=frequency=${tone}`, "-t", "30", "-pix_fmt", "yuv420p", "-c:v", "libx264", "-preset", "ultrafast", "-crf", "40", "-c:a", "aac", "-shortest", "-y", file]);
  const sha = createHash("sha256").update(fs.readFileSync(file)).digest("hex");
  const media = await saveMediaFromPath({ userId, projectId: project.id, kind: "video", mimeType: "video/mp4", extension: "mp4", sourcePath: file, width: 360, height: 640, durationSeconds: 30 });
  await prisma.renderedVideo.create({
    data: { projectId: project.id, status: "completed", videoUrl: mediaUrl(media), mediaFileId: media.id, width: 360, height: 640, durationSeconds: 30, completedAt: new Date() },
  });
  return { project, sha };
}

let first: Awaited<ReturnType<typeof seedShort>>;
let second: Awaited<ReturnType<typeof seedShort>>;

beforeAll(async () => {
  browser = await launchChromium();
  context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  page = await context.newPage();
  await signIn(page, { email, name: "Pia Poster" });
  const user = await prisma.user.findUniqueOrThrow({ where: { email } });
  first = await seedShort(user.id, "Honeybee Waggle Dance", 440);
  second = await seedShort(user.id, "Why Bees Hum", 660);
  const saved = await page.request.put(`${baseUrl()}/api/config`, { data: { googleOAuthClientId: FAKE_CLIENT_ID, googleOAuthClientSecret: FAKE_CLIENT_SECRET } });
  expect(saved.status()).toBe(200);
});
afterAll(async () => {
  await browser?.close();
  await prisma.$disconnect();
});

async function consent(button: string) {
  const popup = context.waitForEvent("page");
  await page.getByRole("button", { name: button }).click();
  await (await popup).waitForEvent("close", { timeout: 30_000 });
}

/** "2026-12-01T09:30" in the browser's zone, `hours` from now (what a datetime-local input takes). */
const localInput = (hours: number) => {
  const d = new Date(Date.now() + hours * 3600_000);
  const pad = (n: number) => String(n).padStart(2, "0");
  return { datetime: `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`, date: d };
};

describe("publishing to YouTube, TikTok and Instagram Reels from one chooser", () => {
  it("posts one Short to all three now and schedules another, moves it, then posts it", { timeout: 120_000 }, async () => {
    await page.goto(`${baseUrl()}/settings`);
    await consent("Connect TikTok");
    await page.getByText("Fake Bee Channel", { exact: true }).waitFor({ timeout: 15_000 });
    await consent("Connect Instagram");
    await page.getByText("fake.bees", { exact: true }).waitFor({ timeout: 15_000 });

    await page.goto(`${baseUrl()}/projects/${first.project.id}/upload`);
    const section = page.getByRole("region", { name: "Publish" });
    // YouTube is in the same chooser, chosen at first; connecting it shows its form in place
    expect(await section.getByLabel("YouTube · not connected").isChecked()).toBe(true);
    await consent("Connect YouTube");
    await section.getByLabel("YouTube · Fake Creator Channel").waitFor({ timeout: 15_000 });
    await section.getByRole("heading", { name: "Upload to YouTube" }).waitFor();
    // the synthetic-media switch is preset from what made the video: an AI voice, so on, and it says why
    expect(await section.getByLabel("Altered or synthetic content").isChecked()).toBe(true);
    expect(await section.getByTestId("youtube-ai-made").textContent()).toContain("AI voice: ElevenLabs (1 scene)");

    await section.getByLabel("TikTok · Fake Bee Channel").check();
    await section.getByLabel("Instagram Reels · fake.bees").check();
    await section.getByText("Posting to Fake Bee Channel on TikTok").waitFor();
    await section.getByText(/TikTok has not audited this server's app yet, so the post will be private/).waitFor();
    await section.getByText("By posting, you agree to TikTok's Music Usage Confirmation.").waitFor();
    expect(await section.getByTestId("tiktok-ai-label").textContent()).toContain("label: on");
    // with TikTok and Instagram chosen, the one button posts to all three (YouTube's own button steps aside)
    expect(await section.getByRole("button", { name: "Upload to YouTube" }).count()).toBe(0);
    // no privacy by default: posting waits for the creator's choice
    const privacy = section.getByLabel("Who can see this post");
    expect(await privacy.inputValue()).toBe("");
    await section.getByText("Choose who can see the TikTok post.", { exact: false }).waitFor();
    expect(await section.getByRole("button", { name: "Post to 3 places" }).isDisabled()).toBe(true);
    // stitches are off in the account's TikTok settings: its switch cannot be turned on
    expect(await section.getByLabel("Allow stitches").isDisabled()).toBe(true);
    // the frame rate was read from the file: 30 fps is within both platforms' 23-60
    expect(await section.getByText("Frame rate within 23-60 fps").count()).toBe(2);
    await privacy.selectOption("SELF_ONLY");
    await section.getByLabel("Allow comments").check();
    const captions = section.getByLabel("Caption");
    await captions.nth(0).fill("How bees dance #bees");
    await captions.nth(1).fill("How bees dance\n\n#bees #honey");
    await section.getByLabel("Also show the Reel in my feed").uncheck();
    await section.getByLabel("Title", { exact: true }).fill("How Bees Dance");
    await shootBoth(page, "publish-step");

    await section.getByRole("button", { name: "Post to 3 places" }).click();
    await section.getByText(/TikTok · Fake Bee Channel · Published/).waitFor({ timeout: 60_000 });
    await section.getByText(/Instagram Reels · fake\.bees · Published/).waitFor({ timeout: 60_000 });
    await section.getByText(/^YouTube · Published/).waitFor({ timeout: 60_000 });
    const links = await section.getByRole("link", { name: "View post" }).evaluateAll((as) => as.map((a) => a.getAttribute("href")));
    // TikTok names no public post for an "Only me" post: the row says where to see it instead of a link
    expect(links).toHaveLength(2);
    expect(links.some((l) => l?.startsWith("https://www.youtube.com/watch?v="))).toBe(true);
    expect(links.some((l) => l?.startsWith("https://www.instagram.com/reel/"))).toBe(true);
    await section.getByText("No public link yet: private or in review, see it in the TikTok app").waitFor();
    await shootBoth(page, "publish-step-posted");

    let state = await ours();
    expect(state.youtube).toHaveLength(1);
    expect(state.youtube[0]).toMatchObject({ sha256: first.sha, resource: { snippet: { title: "How Bees Dance" }, status: { containsSyntheticMedia: true } } });
    expect(state.tiktok).toHaveLength(1);
    expect(state.tiktok[0]).toMatchObject({ sha256: first.sha, postInfo: { title: "How bees dance #bees", privacy_level: "SELF_ONLY", disable_comment: false, disable_duet: true, disable_stitch: true, is_aigc: true } });
    expect(state.published).toHaveLength(1);
    expect(state.containers[0]).toMatchObject({ sha256: first.sha, caption: "How bees dance\n\n#bees #honey", shareToFeed: false });

    // the second Short: all three scheduled for tomorrow
    await page.goto(`${baseUrl()}/projects/${second.project.id}/upload`);
    await section.getByRole("heading", { name: "Upload to YouTube" }).waitFor();
    await section.getByLabel("TikTok · Fake Bee Channel").check();
    await section.getByLabel("Instagram Reels · fake.bees").check();
    await section.getByLabel("Who can see this post").selectOption("SELF_ONLY");
    const tomorrow = localInput(24);
    await section.getByLabel("Time to post to TikTok").fill(tomorrow.datetime);
    await section.getByLabel("Time to post to Instagram Reels").fill(tomorrow.datetime);
    await section.getByLabel("Schedule publishing").check();
    await section.getByLabel("Schedule date").fill(tomorrow.datetime.slice(0, 10));
    await section.getByLabel("Schedule time").fill("12:00");
    await section.getByRole("button", { name: "Post to 3 places" }).click();
    await section.getByText(/TikTok · Fake Bee Channel · Scheduled for/).waitFor({ timeout: 30_000 });
    await section.getByText(/Instagram Reels · fake\.bees · Scheduled for/).waitFor();
    await section.getByText(/^YouTube · Scheduled: uploaded, private until/).waitFor({ timeout: 60_000 });
    state = await ours();
    expect(state.youtube).toHaveLength(2);
    expect(state.youtube[1]).toMatchObject({ sha256: second.sha, resource: { status: { privacyStatus: "private" } } });
    expect(state.youtube[1]!.resource.status.publishAt).toBeTruthy();
    expect(state.tiktok).toHaveLength(1);
    expect(state.containers).toHaveLength(1);

    // the TikTok post moved to the day after, from the page
    const tiktokRow = section.getByRole("listitem").filter({ hasText: "TikTok · Fake Bee Channel · Scheduled" });
    await tiktokRow.getByRole("button", { name: "Change time" }).click();
    const later = localInput(48);
    await tiktokRow.getByLabel("New time for the TikTok post").fill(later.datetime);
    await tiktokRow.getByRole("button", { name: "Move" }).click();
    await page.getByText("Post moved").first().waitFor();
    await expect
      .poll(async () => (await prisma.platformPost.findFirstOrThrow({ where: { projectId: second.project.id, platform: "tiktok" } })).scheduledAt?.getTime())
      .toBe(new Date(later.datetime).getTime());
    await shootBoth(page, "publish-step-scheduled");

    // then both posted now instead: each fake receives the second Short once
    for (const name of ["TikTok · Fake Bee Channel · Scheduled", "Instagram Reels · fake.bees · Scheduled"]) {
      await section.getByRole("listitem").filter({ hasText: name }).getByRole("button", { name: "Post now" }).click();
    }
    await section.getByText(/TikTok · Fake Bee Channel · Published/).waitFor({ timeout: 60_000 });
    await section.getByText(/Instagram Reels · fake\.bees · Published/).waitFor({ timeout: 60_000 });
    state = await ours();
    expect(state.tiktok.map((p) => p.sha256)).toEqual([first.sha, second.sha]);
    expect(state.published).toHaveLength(2);
    expect(state.containers.map((c) => c.sha256)).toEqual([first.sha, second.sha]);
  });
});
