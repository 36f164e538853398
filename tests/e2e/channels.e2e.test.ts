// Issue 52's pages in Chromium: make a channel on /channels, add ideas to its queue, see them take the calendar's
// slots, approve a made video, move a video to another slot; then (issue 55's path) connect YouTube, let the channel
// post to it and approve the other made videos: every idea is a post scheduled at its slot. Screenshots of both
// pages at 1280x800 and 390x844. Then a channel on YouTube, TikTok and Instagram (decision 271): its accounts'
// options on the page and a slot's video published on two and refused by the third, with the reason.
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FAKE_CLIENT_ID, FAKE_CLIENT_SECRET } from "../fakes/youtube";
import { baseUrl, launchChromium } from "../support/browser";
import { signIn } from "../support/browser-auth";
import { shootBoth } from "../support/screenshots";

// the test process marks one idea's video made in the app's own database (making one takes minutes)
process.env.DATABASE_URL = process.env.E2E_DATABASE_URL;
const { prisma } = await import("~/core/db.server");

let browser: Browser;
let page: Page;
const email = `channels-${Date.now()}@example.com`;

beforeAll(async () => {
  browser = await launchChromium();
  page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
  await signIn(page, { email, name: "Cora Channel" });
});
afterAll(async () => {
  await browser?.close();
  await prisma.$disconnect();
});

describe("channel pages", () => {
  it("make a channel, add ideas, approve one, see the calendar, move a video, post to YouTube: a week of scheduled posts", { timeout: 150_000 }, async () => {
    await page.goto(`${baseUrl()}/channels`);
    await page.getByText("No channels yet: make your first one above.").waitFor();
    await page.getByLabel("Name").fill("Ocean Facts Daily");
    await page.getByLabel("Time zone").fill("UTC");
    await page.getByRole("button", { name: "Make channel" }).click();
    await page.waitForURL(/\/channels\/[^/]+$/);
    const channelId = page.url().split("/").pop()!;
    // made a week ahead at most an hour before each slot, so this test starts no video on the app's worker
    const patched = await page.request.patch(`${baseUrl()}/api/v1/channels/${channelId}`, { data: { leadHours: 1 } });
    expect(patched.status()).toBe(200);

    await page.getByLabel("Ideas", { exact: true }).fill("Why octopuses have three hearts | blood and gills\nThe deepest fish ever filmed\nHow coral builds cities\nWhy tides have a clock");
    await page.getByRole("button", { name: "Add ideas" }).click();
    await page.getByText("4 added to the queue.").first().waitFor();
    // the channel's workflow places them in the next slots, in order
    const slots = page.getByTestId("calendar-slot");
    await expect
      .poll(async () => (await slots.filter({ hasText: "Queued: made ahead of its slot" }).count()), { timeout: 30_000 })
      .toBe(4)
      .catch(async (e: unknown) => {
        console.log(JSON.stringify(await prisma.channelIdea.findMany({ where: { channelId } })), await page.locator("main").innerText());
        throw e;
      });
    const queued = await slots.filter({ hasText: "Queued: made ahead of its slot" }).allTextContents();
    expect(queued.map((t) => t.match(/(Why octopuses have three hearts|The deepest fish ever filmed|How coral builds cities|Why tides have a clock)/)?.[1])).toEqual([
      "Why octopuses have three hearts",
      "The deepest fish ever filmed",
      "How coral builds cities",
      "Why tides have a clock",
    ]);
    for (const text of queued) expect(text).toMatch(/^(Tue|Thu|Sat) \d+ \w+, (18:00|10:00)/);

    // one idea's video is made (as the worker would record it): it waits for approval
    const idea = await prisma.channelIdea.findFirstOrThrow({ where: { channelId, title: "The deepest fish ever filmed" } });
    const run = await prisma.videoRun.create({ data: { userId: idea.userId, options: { title: idea.title, topic: idea.title }, status: "completed", stage: "done", percent: 100 } });
    await prisma.channelIdea.update({ where: { id: idea.id }, data: { status: "ready", runId: run.id } });
    await page.reload();
    const ready = slots.filter({ hasText: "The deepest fish ever filmed" });
    await ready.getByText("Made: waiting for your approval").waitFor();
    await shootBoth(page, "channel-calendar");
    await ready.getByRole("button", { name: "Approve" }).click();
    await ready.getByText("Approved: waiting for a platform account to post to").waitFor();
    expect((await prisma.channelIdea.findUniqueOrThrow({ where: { id: idea.id } })).status).toBe("approved");

    // move the first video to the slot after the last one
    const first = await prisma.channelIdea.findFirstOrThrow({ where: { channelId, title: "Why octopuses have three hearts" } });
    const move = page.getByLabel("Move Why octopuses have three hearts");
    const target = (await move.locator("option").allTextContents()).find((t) => !t.includes("swap") && t !== "Move to...")!;
    await move.selectOption({ label: target });
    await page.getByText("Video Moved").first().waitFor();
    const moved = await prisma.channelIdea.findUniqueOrThrow({ where: { id: first.id } });
    expect(moved.slotAt!.getTime()).toBeGreaterThan(first.slotAt!.getTime());
    await slots.filter({ hasText: target.split(" (")[0]! }).filter({ hasText: "Why octopuses have three hearts" }).waitFor();

    // the creator's YouTube account (the local fake) connected on the Upload page, then the channel posts to it
    const saved = await page.request.put(`${baseUrl()}/api/config`, { data: { googleOAuthClientId: FAKE_CLIENT_ID, googleOAuthClientSecret: FAKE_CLIENT_SECRET } });
    expect(saved.status()).toBe(200);
    await page.goto(`${baseUrl()}/upload`);
    const popup = page.context().waitForEvent("page");
    await page.getByRole("button", { name: "Connect YouTube" }).click();
    await (await popup).waitForEvent("close", { timeout: 30_000 });
    await page.getByText("YouTube connected").first().waitFor({ timeout: 15_000 });
    await page.goto(`${baseUrl()}/channels/${channelId}`);
    await page.getByText("No platform account: videos wait to be posted").waitFor();
    await page.getByLabel("Post to my connected YouTube channel").check();
    await page.getByRole("button", { name: "Save channel" }).click();
    await page.getByText("Channel Saved").first().waitFor();
    await page.getByText("YouTube: Fake Creator Channel").waitFor();
    // the approved video now waits for its slot on that account
    await ready.getByText("Approved: posts at its slot").waitFor();

    // the other three made (as the worker would record them), each approved: the week's posts are scheduled
    for (const other of await prisma.channelIdea.findMany({ where: { channelId, status: "queued" } })) {
      const made = await prisma.videoRun.create({ data: { userId: other.userId, options: { title: other.title, topic: other.topic }, status: "completed", stage: "done", percent: 100 } });
      await prisma.channelIdea.update({ where: { id: other.id }, data: { status: "ready", runId: made.id } });
    }
    await page.reload();
    for (const title of ["Why octopuses have three hearts", "How coral builds cities", "Why tides have a clock"]) {
      // by its title line: a short title is also in the other slots' "swap with" choices
      const slot = slots.filter({ has: page.getByText(title, { exact: true }) });
      await slot.getByText("Made: waiting for your approval").waitFor();
      await slot.getByRole("button", { name: "Approve" }).click();
      await slot.getByText("Approved: posts at its slot").waitFor();
    }
    await expect.poll(() => slots.filter({ hasText: "Approved: posts at its slot" }).count()).toBe(4);
    const scheduled = await prisma.channelIdea.findMany({ where: { channelId }, orderBy: { slotAt: "asc" } });
    expect(scheduled.map((i) => i.status)).toEqual(["approved", "approved", "approved", "approved"]);
    // four different slots, all ahead, within the next two weeks
    const times = scheduled.map((i) => i.slotAt!.getTime());
    expect(new Set(times).size).toBe(4);
    expect(times.every((t) => t > Date.now() && t < Date.now() + 15 * 86400_000)).toBe(true);
    await shootBoth(page, "channel-calendar-scheduled");

    await page.goto(`${baseUrl()}/channels`);
    await page.getByText("Ocean Facts Daily").waitFor();
    await shootBoth(page, "channels");
  });

  // the same creator as above, whose YouTube is connected by now
  it("a channel on YouTube, TikTok and Instagram: its accounts' options, and where a slot's video went on each (decision 271)", { timeout: 60_000 }, async () => {
    // TikTok and Instagram connected through their fakes' consent screens, as the Settings popup does
    for (const platform of ["tiktok", "instagram"] as const) {
      const { authUrl } = (await (await page.request.get(`${baseUrl()}/api/platforms/${platform}/oauth/authorize`)).json()) as { authUrl: string };
      const back = (await page.request.get(authUrl, { maxRedirects: 0 })).headers()["location"]!;
      expect((await page.request.get(back)).status()).toBe(200);
    }
    const made = await page.request.post(`${baseUrl()}/api/v1/channels`, {
      data: {
        name: "Reef Minute",
        timeZone: "UTC",
        schedule: [1, 2, 3, 4, 5, 6, 7].map((day) => ({ day, time: "00:00" })),
        leadHours: 1,
        accounts: [{ platform: "youtube" }, { platform: "tiktok", tiktok: { privacyLevel: "SELF_ONLY", consent: true } }, { platform: "instagram" }],
      },
    });
    expect(made.status()).toBe(201);
    const channel = (await made.json()) as { id: string; accounts: { platform: string; connectionRef: string; label: string }[] };
    expect(channel.accounts.map((a) => a.label).slice(1)).toEqual(["TikTok: Fake Bee Channel", "Instagram Reels: fake.bees"]);

    // today's slot (00:00 UTC) went out (as the worker records it): YouTube and Instagram have it, TikTok refused it
    const user = await prisma.user.findFirstOrThrow({ where: { email } });
    const today = new Date(new Date().toISOString().slice(0, 10) + "T00:00:00Z");
    const project = await prisma.project.create({ data: { userId: user.id, title: "Why reefs glow at night", topic: "coral fluorescence", resolution: "shorts", durationSeconds: 30 } });
    const run = await prisma.videoRun.create({ data: { userId: user.id, projectId: project.id, options: { title: project.title, topic: project.topic }, status: "completed", stage: "done", percent: 100, youtubeUrl: "https://www.youtube.com/watch?v=reefglow001" } });
    await prisma.channelIdea.create({
      data: { channelId: channel.id, userId: user.id, title: project.title, topic: project.topic, position: 1, status: "published", slotAt: today, runId: run.id, publishedAt: new Date(today.getTime() + 60_000), youtubeUrl: run.youtubeUrl },
    });
    const [tiktok, instagram] = channel.accounts.slice(1);
    await prisma.platformPost.createMany({
      data: [
        { userId: user.id, projectId: project.id, connectionId: tiktok!.connectionRef, platform: "tiktok", caption: project.title, options: {}, status: "failed", error: 'This TikTok account does not offer "Only me" any more; choose one of Everyone, Followers.' },
        { userId: user.id, projectId: project.id, connectionId: instagram!.connectionRef, platform: "instagram", caption: project.title, options: {}, status: "published", publishedId: "17900000000000001", permalink: "https://www.instagram.com/reel/reefglow001/" },
      ],
    });

    await page.goto(`${baseUrl()}/channels/${channel.id}`);
    const posted = page.getByRole("list", { name: "Where Why reefs glow at night was posted" });
    await posted.waitFor();
    expect(await posted.getByTestId("idea-post").allInnerTexts()).toEqual([
      "YouTube: Published",
      'TikTok · Fake Bee Channel: Failed: This TikTok account does not offer "Only me" any more; choose one of Everyone, Followers.',
      "Instagram Reels · fake.bees: Published",
    ]);
    expect(await posted.getByRole("link", { name: "Published" }).evaluateAll((links) => links.map((l) => l.getAttribute("href")))).toEqual(["https://www.youtube.com/watch?v=reefglow001", "https://www.instagram.com/reel/reefglow001/"]);
    // today's slot in the calendar names the place the video is missing
    await page.getByText("Published, not on TikTok", { exact: true }).first().waitFor();
    // the accounts' options as saved: TikTok's from its creator info, with the consent the channel gave
    await page.getByLabel("Post to TikTok: Fake Bee Channel").waitFor();
    expect(await page.getByLabel("Post to TikTok: Fake Bee Channel").isChecked()).toBe(true);
    await page.getByText("Posting to Fake Bee Channel on TikTok").waitFor();
    expect(await page.getByLabel("Who can see the posts").inputValue()).toBe("SELF_ONLY");
    expect(await page.getByLabel("Post to Instagram Reels: fake.bees").isChecked()).toBe(true);
    await page.getByText("Posting to Fake Bee Channel on TikTok").scrollIntoViewIfNeeded();
    await shootBoth(page, "channel-platform-posts");
    // an option changed on the page is saved with the account
    await page.getByLabel("Allow comments").check();
    await page.getByRole("button", { name: "Save channel" }).click();
    await page.getByText("Channel Saved").first().waitFor();
    const saved = (await (await page.request.get(`${baseUrl()}/api/v1/channels/${channel.id}`)).json()) as { accounts: { platform: string; tiktok?: Record<string, unknown> }[] };
    expect(saved.accounts.find((a) => a.platform === "tiktok")!.tiktok).toEqual({ mode: "direct", privacyLevel: "SELF_ONLY", allowComment: true, allowDuet: false, allowStitch: false, consent: true });
  });
});
