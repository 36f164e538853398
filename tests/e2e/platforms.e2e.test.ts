// The publish step's TikTok and Instagram Reels part in Chromium against the built app, whose TikTok and Instagram
// endpoints are the local fakes (tests/fakes/platforms-server.ts, started by the test harness): both accounts are
// connected in Settings through their consent popups; on the Upload page the TikTok panel shows the account's
// nickname, a privacy choice with no default, the interaction switches, the consent line and that the unaudited
// app's posts stay private; one 3-second 9:16 video is posted to both, and each fake receives the whole file
// (SHA-256), the caption and the options chosen; the page shows each post's state and link.
import { createHash } from "node:crypto";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { baseUrl, launchChromium } from "../support/browser";
import { signIn } from "../support/browser-auth";
import { shootBoth } from "../support/screenshots";

process.env.DATABASE_URL = process.env.E2E_DATABASE_URL;
process.env.DATA_DIR = process.env.E2E_DATA_DIR;
const { prisma } = await import("~/core/db.server");
const { mediaUrl, saveMediaFromPath } = await import("~/core/storage.server");

let browser: Browser;
let context: BrowserContext;
let page: Page;
const email = `poster-${Date.now()}@example.com`;
let videoSha = "";

async function seedRenderedVideo(userId: string) {
  const project = await prisma.project.create({ data: { userId, title: "Honeybee Waggle Dance", topic: "How bees share directions", resolution: "shorts", durationSeconds: 30 } });
  await prisma.user.update({ where: { id: userId }, data: { currentProjectId: project.id } });
  const file = path.join(os.tmpdir(), `reelsmith-e2e-platforms-${Date.now()}.mp4`);
  execFileSync("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=360x640:rate=30", "-f", "lavfi", "-i", "sine=frequency=440", "-t", "3", "-pix_fmt", "yuv420p", "-c:v", "libx264", "-preset", "ultrafast", "-c:a", "aac", "-shortest", "-y", file]);
  videoSha = createHash("sha256").update(fs.readFileSync(file)).digest("hex");
  const media = await saveMediaFromPath({ userId, projectId: project.id, kind: "video", mimeType: "video/mp4", extension: "mp4", sourcePath: file, width: 360, height: 640, durationSeconds: 3 });
  await prisma.renderedVideo.create({
    data: { projectId: project.id, status: "completed", videoUrl: mediaUrl(media), mediaFileId: media.id, width: 360, height: 640, durationSeconds: 3, completedAt: new Date() },
  });
}

beforeAll(async () => {
  browser = await launchChromium();
  context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  page = await context.newPage();
  await signIn(page, { email, name: "Pia Poster" });
  await seedRenderedVideo((await prisma.user.findUniqueOrThrow({ where: { email } })).id);
});
afterAll(async () => {
  await browser?.close();
  await prisma.$disconnect();
});

async function connectIn(name: "TikTok" | "Instagram", accountName: string) {
  const popup = context.waitForEvent("page");
  await page.getByRole("button", { name: `Connect ${name}` }).click();
  await (await popup).waitForEvent("close", { timeout: 30_000 });
  await page.getByText(accountName, { exact: true }).waitFor({ timeout: 15_000 });
}

describe("posting to TikTok and Instagram Reels", () => {
  it("connects both accounts, shows TikTok's required choices, and posts once to each", { timeout: 90_000 }, async () => {
    await page.goto(`${baseUrl()}/settings`);
    await connectIn("TikTok", "Fake Bee Channel");
    await connectIn("Instagram", "fake.bees");
    await page.getByRole("region", { name: "Instagram Reels" }).scrollIntoViewIfNeeded();
    await shootBoth(page, "settings-platform-accounts");

    await page.goto(`${baseUrl()}/upload`);
    const section = page.getByRole("region", { name: "Post to TikTok and Instagram" });
    await section.getByLabel("TikTok · Fake Bee Channel").check();
    await section.getByLabel("Instagram Reels · fake.bees").check();
    await section.getByText("Posting to Fake Bee Channel on TikTok").waitFor();
    await section.getByText(/TikTok has not audited this server's app yet, so the post will be private/).waitFor();
    await section.getByText("By posting, you agree to TikTok's Music Usage Confirmation.").waitFor();
    // no privacy by default: posting waits for the creator's choice
    const privacy = section.getByLabel("Who can see this post");
    expect(await privacy.inputValue()).toBe("");
    await section.getByText("Choose who can see the TikTok post.", { exact: false }).waitFor();
    expect(await section.getByRole("button", { name: "Post to 2 accounts" }).isDisabled()).toBe(true);
    // stitches are off in the account's TikTok settings: its switch cannot be turned on
    expect(await section.getByLabel("Allow stitches").isDisabled()).toBe(true);
    await privacy.selectOption("SELF_ONLY");
    await section.getByLabel("Allow comments").check();
    const captions = section.getByLabel("Caption");
    await captions.nth(0).fill("How bees dance #bees");
    await captions.nth(1).fill("How bees dance\n\n#bees #honey");
    await section.getByLabel("Also show the Reel in my feed").uncheck();
    await shootBoth(page, "publish-platforms");

    await section.getByRole("button", { name: "Post to 2 accounts" }).click();
    await section.getByText(/Instagram Reels · fake\.bees · Published/).waitFor({ timeout: 60_000 });
    await section.getByText(/TikTok · Fake Bee Channel · Published/).waitFor({ timeout: 60_000 });
    expect(await section.getByRole("link", { name: "View post" }).first().getAttribute("href")).toMatch(/^https:\/\/www\.instagram\.com\/reel\//);
    await shootBoth(page, "publish-platforms-posted");

    const tiktokState = (await (await fetch(`${process.env.E2E_TIKTOK_FAKE_URL}/__fake/state`)).json()) as { posts: { sha256: string; postInfo: Record<string, unknown> }[] };
    expect(tiktokState.posts).toHaveLength(1);
    expect(tiktokState.posts[0]).toMatchObject({ sha256: videoSha, postInfo: { title: "How bees dance #bees", privacy_level: "SELF_ONLY", disable_comment: false, disable_duet: true, disable_stitch: true, is_aigc: true } });
    const igState = (await (await fetch(`${process.env.E2E_INSTAGRAM_FAKE_URL}/__fake/state`)).json()) as { containers: { sha256: string; caption: string; shareToFeed: boolean }[]; published: unknown[] };
    expect(igState.published).toHaveLength(1);
    expect(igState.containers[0]).toMatchObject({ sha256: videoSha, caption: "How bees dance\n\n#bees #honey", shareToFeed: false });
  });
});
