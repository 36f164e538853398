// The creator's first path of issue 55, in Chromium against the built app with the offline providers and no keys: a
// title and a topic become a 10 s 9:16 Short (script, storyboard, Generate All, render) and that very file is
// posted to YouTube, TikTok and Instagram Reels from the one publish step, each account connected through its
// consent popup on the local fakes (tests/fakes/youtube-server.ts, platforms-server.ts). Each fake must hold the
// rendered file byte for byte (SHA-256). platforms.e2e.test.ts covers the publish step's options and schedules on
// seeded videos; this file is the whole path from the title, kept short (a 10 s Short, one post each).
import { createHash } from "node:crypto";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FAKE_CLIENT_ID, FAKE_CLIENT_SECRET } from "../fakes/youtube";
import { baseUrl, launchChromium } from "../support/browser";
import { signIn } from "../support/browser-auth";
import { createVideo, fillCreateForm, generateAllContent, generateStoryboard, renderVideo } from "../support/creator-steps";
import { shootBoth } from "../support/screenshots";

process.env.DATABASE_URL = process.env.E2E_DATABASE_URL;
process.env.DATA_DIR = process.env.E2E_DATA_DIR;
const { prisma } = await import("~/core/db.server");
const { readMedia } = await import("~/core/storage.server");

const TITLE = "Why Cats Purr";
const TOPIC = "How a cat's purr is made, and why cats purr when they are happy and when they are hurt";

let browser: Browser;
let context: BrowserContext;
let page: Page;
const email = `title-to-posts-${Date.now()}@example.com`;

type Fakes = {
  youtube: { videos: { sha256: string; resource: { snippet: { title: string }; status: { privacyStatus: string } } }[] };
  tiktok: { posts: { sha256: string; postInfo: Record<string, unknown> }[] };
  instagram: { containers: { id: string; sha256: string; caption: string }[]; published: { containerId: string }[] };
};
/** What the three fakes hold of one file (by its bytes): the e2e app's other tests post to the same fakes. */
async function postsOf(sha: string) {
  const read = async (url: string | undefined) => (await fetch(`${url}/__fake/state`)).json();
  const [youtube, tiktok, instagram] = (await Promise.all([read(process.env.E2E_YOUTUBE_FAKE_URL), read(process.env.E2E_TIKTOK_FAKE_URL), read(process.env.E2E_INSTAGRAM_FAKE_URL)])) as [
    Fakes["youtube"],
    Fakes["tiktok"],
    Fakes["instagram"],
  ];
  const containers = instagram.containers.filter((c) => c.sha256 === sha);
  return {
    youtube: youtube.videos.filter((v) => v.sha256 === sha),
    tiktok: tiktok.posts.filter((p) => p.sha256 === sha),
    containers,
    published: instagram.published.filter((p) => containers.some((c) => c.id === p.containerId)),
  };
}

async function consent(button: string) {
  const popup = context.waitForEvent("page");
  await page.getByRole("button", { name: button }).click();
  await (await popup).waitForEvent("close", { timeout: 30_000 });
}

beforeAll(async () => {
  browser = await launchChromium();
  context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  page = await context.newPage();
  await signIn(page, { email, name: "Tia Title" });
});
afterAll(async () => {
  await browser?.close();
  await prisma.$disconnect();
});

describe("from a title to posts on YouTube, TikTok and Instagram, with no keys", () => {
  it("makes a 10 s Short from a title and topic, then posts that file to all three", { timeout: 300_000 }, async () => {
    const started = performance.now();
    const times: string[] = [];
    const lap = (name: string) => times.push(`${name} ${((performance.now() - started) / 1000).toFixed(0)} s`);

    await fillCreateForm(page, { title: TITLE, topic: TOPIC, format: "9:16 Shorts", seconds: 10 });
    await createVideo(page);
    await page.getByRole("button", { name: "Download Script" }).waitFor({ timeout: 120_000 });
    lap("script");

    await generateStoryboard(page);
    await generateAllContent(page);
    lap("storyboard and media");

    await renderVideo(page);
    lap("render");

    const user = await prisma.user.findUniqueOrThrow({ where: { email } });
    const projectId = user.currentProjectId!;
    const project = await prisma.project.findUniqueOrThrow({ where: { id: projectId } });
    expect(project).toMatchObject({ title: TITLE, topic: TOPIC, resolution: "shorts" });
    const render = await prisma.renderedVideo.findFirstOrThrow({ where: { projectId, status: "completed" }, orderBy: { createdAt: "desc" } });
    expect(render).toMatchObject({ width: 1080, height: 1920 });
    expect(render.durationSeconds).toBeGreaterThan(3);
    const sha = createHash("sha256").update(await readMedia(await prisma.mediaFile.findUniqueOrThrow({ where: { id: render.mediaFileId! } }))).digest("hex");

    // the three accounts, each through its consent popup: the Google client saved first, as the creator would in Settings
    const saved = await page.request.put(`${baseUrl()}/api/config`, { data: { googleOAuthClientId: FAKE_CLIENT_ID, googleOAuthClientSecret: FAKE_CLIENT_SECRET } });
    expect(saved.status()).toBe(200);
    await page.goto(`${baseUrl()}/settings`);
    await consent("Connect TikTok");
    await page.getByText("Fake Bee Channel", { exact: true }).waitFor({ timeout: 15_000 });
    await consent("Connect Instagram");
    await page.getByText("fake.bees", { exact: true }).waitFor({ timeout: 15_000 });

    await page.goto(`${baseUrl()}/projects/${projectId}/upload`);
    const section = page.getByRole("region", { name: "Publish" });
    await consent("Connect YouTube");
    await section.getByLabel("YouTube · Fake Creator Channel").waitFor({ timeout: 15_000 });
    await section.getByRole("heading", { name: "Upload to YouTube" }).waitFor();
    expect(await section.getByLabel("Title", { exact: true }).inputValue()).toBe(TITLE);
    await section.getByLabel("TikTok · Fake Bee Channel").check();
    await section.getByLabel("Instagram Reels · fake.bees").check();
    await section.getByLabel("Who can see this post").selectOption("SELF_ONLY");
    const captions = section.getByLabel("Caption");
    await captions.nth(0).fill("Why cats purr #cats");
    await captions.nth(1).fill("Why cats purr\n\n#cats");
    await shootBoth(page, "title-to-posts-publish");
    await section.getByRole("button", { name: "Post to 3 places" }).click();
    await section.getByText(/TikTok · Fake Bee Channel · Published/).waitFor({ timeout: 60_000 });
    await section.getByText(/Instagram Reels · fake\.bees · Published/).waitFor({ timeout: 60_000 });
    await section.getByText(/^YouTube · Published/).waitFor({ timeout: 60_000 });
    lap("posted");
    await shootBoth(page, "title-to-posts-posted");

    // the rendered file itself, once on each platform, with the creator's title and captions
    const posts = await postsOf(sha);
    expect(posts.youtube).toHaveLength(1);
    expect(posts.youtube[0]!.resource.snippet.title).toBe(TITLE);
    expect(posts.tiktok).toHaveLength(1);
    expect(posts.tiktok[0]!.postInfo).toMatchObject({ title: "Why cats purr #cats", privacy_level: "SELF_ONLY" });
    expect(posts.containers).toHaveLength(1);
    expect(posts.containers[0]!.caption).toBe("Why cats purr\n\n#cats");
    expect(posts.published).toHaveLength(1);
    console.log(`title to posts: ${times.join(", ")}`);
  });
});
