// Issue 52's "done when": a channel of 3 weekly slots and 5 ideas on a real worker process and the YouTube fake, its
// clock moved forward slot by slot (a test clock the workflow reads; the doors never set one). Each idea is made
// ahead with the channel's kit (the project's voice speed, captions and music mood as the kit says; the footer and
// hashtags under the description on YouTube) and published at its slot, exactly once. The worker is killed (SIGKILL)
// and the clock moves past a slot while it is dead: that slot is published late when a worker is back, marked late,
// not skipped; a step repeated afterwards posts nothing twice.
import { fake } from "../support/youtube-fake";
import { afterAll, describe, expect, it } from "vitest";
import { prisma } from "~/core/db.server";
import { ChannelInputSchema } from "~/lib/channel";
import { addIdeas, channelCalendar, createChannel, listIdeas, type IdeaView } from "~/server/channels.server";
import { createChannelActivities } from "../../workflows/activities/channel";
import { channelClockAdvanceSignal, channelWorkflowId } from "../../workflows/shared/channel";
import { connectYoutube, saveOAuthClient } from "../fixtures/youtube-project";
import { createTestUser, sessionCookieFor } from "../support/auth";
import { killWorkerProcess, startWorkerProcess, workerProcessClient } from "../support/worker-process";

const temporal = workerProcessClient();
afterAll(async () => {
  await fake.stop();
  await prisma.$disconnect();
});

const HOUR = 3600_000;

describe("a channel's week", () => {
  it("makes 5 ideas ahead with the kit and publishes each at its slot exactly once; a slot passed while the worker was dead is published late, marked", { timeout: 900_000 }, async () => {
    const user = await createTestUser();
    await saveOAuthClient(user.id);
    await connectYoutube(await sessionCookieFor(user.id));
    const taskQueue = process.env.TEMPORAL_TASK_QUEUE!;
    let worker = await startWorkerProcess("all-stages", { taskQueue });

    // channel time starts on Saturday 5 January 2030 at 12:00 UTC and runs at the real pace; the test moves it on
    const clock = { virtualAtMs: Date.UTC(2030, 0, 5, 12), realAtMs: Date.now(), speed: 1 };
    let offset = 0;
    const channelNow = () => clock.virtualAtMs + (Date.now() - clock.realAtMs) + offset;
    const input = ChannelInputSchema.parse({
      name: "Ocean Facts",
      timeZone: "UTC",
      schedule: [{ day: 2, time: "18:00" }, { day: 4, time: "18:00" }, { day: 6, time: "10:00" }],
      approval: "auto",
      leadHours: 168,
      accounts: [{ platform: "youtube" }],
      kit: { format: "9:16", duration: 5, voiceSpeed: 1.1, captions: true, captionStyle: "outlined", captionPosition: "top", music: true, musicMood: "calm lo-fi", musicVolume: 12, descriptionFooter: "New facts every week.", hashtags: ["ocean", "#facts"] },
    });
    const channel = await createChannel(user.id, input, { clock, tuning: { renderSize: { width: 180, height: 320 }, musicPollIntervalMs: 200 }, pollMs: 1000 });
    expect(channel.kit.hashtags).toEqual(["#ocean", "#facts"]);
    const handle = temporal.client.workflow.getHandle(channelWorkflowId(channel.id));
    /** Moves channel time to `at` (ms), in the workflow and here. */
    const moveClockTo = async (at: number) => {
      const by = at - channelNow();
      offset += by;
      await handle.signal(channelClockAdvanceSignal, by);
    };
    const titles = ["Whales sing", "Octopus hearts", "Deep sea light", "Coral cities", "Tide clocks"];
    const added = await addIdeas(user.id, channel.id, { text: titles.map((t) => `${t} | ${t.toLowerCase()} explained`).join("\n") });
    expect(added.map((i) => i.title)).toEqual(titles);

    const ideas = async () => listIdeas(user.id, channel.id, channelNow());
    const waitFor = async (what: string, ok: (list: IdeaView[]) => boolean, realMs: number) => {
      const deadline = Date.now() + realMs;
      for (;;) {
        const list = await ideas();
        if (ok(list)) return list;
        if (Date.now() > deadline) throw new Error(`${what}: ${JSON.stringify(list.map((i) => [i.title, i.status, i.slotLabel, i.stateLabel]))}`);
        await new Promise((r) => setTimeout(r, 500));
      }
    };
    const is = (status: string) => (i: IdeaView | undefined) => i?.status === status;

    // the ideas took the slots in queue order; the three within a week are made at once and approved by the rule
    const placed = await waitFor("placed in slots", (l) => l.every((i) => i.slotAt), 30_000);
    expect(placed.map((i) => i.slotLabel)).toEqual(["Tue 8 Jan, 18:00", "Thu 10 Jan, 18:00", "Sat 12 Jan, 10:00", "Tue 15 Jan, 18:00", "Thu 17 Jan, 18:00"]);
    const slot = placed.map((i) => new Date(i.slotAt!).getTime());
    await waitFor("the first three made", (l) => l.slice(0, 3).every(is("approved")) && l.slice(3).every(is("queued")), 600_000);
    expect(fake.videos.size).toBe(0);

    // slot by slot: each published when its time comes, the next week's videos started a week ahead
    for (const n of [0, 1, 2]) {
      await moveClockTo(slot[n]!);
      await waitFor(`idea ${n + 1} published`, (l) => is("published")(l[n]), 120_000);
    }
    await waitFor("the last two made", (l) => l.slice(3).every(is("approved")), 600_000);
    expect(fake.videos.size).toBe(3);

    // the worker dies; channel time passes the fourth slot while it is dead: the slot says so, then posts late
    await killWorkerProcess(worker);
    await moveClockTo(slot[3]! + 10 * HOUR);
    const whileDead = (await ideas())[3]!;
    expect(whileDead).toMatchObject({ status: "approved", late: true, stateLabel: "Approved: posting now" });
    await new Promise((r) => setTimeout(r, 3000));
    expect(fake.videos.size).toBe(3);
    worker = await startWorkerProcess("all-stages", { taskQueue });
    await waitFor("idea 4 published late", (l) => is("published")(l[3]), 240_000);
    await moveClockTo(slot[4]!);
    const done = await waitFor("all five published", (l) => l.every(is("published")), 120_000);

    // a step repeated (a retried activity, a replay) publishes nothing again
    const again = await createChannelActivities().channelStep({ channelId: channel.id, userId: user.id, nowMs: channelNow() });
    expect(again.make.concat(again.publish)).toEqual([]);
    await new Promise((r) => setTimeout(r, 3000));
    await killWorkerProcess(worker);

    // exactly once each on YouTube, with the kit's footer and hashtags under the description
    const onYoutube = [...fake.videos.values()].map((v) => v.resource.snippet?.title);
    expect(onYoutube.sort()).toEqual([...titles].sort());
    for (const v of fake.videos.values()) expect(v.resource.snippet?.description).toMatch(/New facts every week\.\n\n#ocean #facts$/);

    // at their slots (within a minute of channel time), but the fourth: late, and it says so
    const rows = await prisma.channelIdea.findMany({ where: { channelId: channel.id }, orderBy: { position: "asc" } });
    const lateness = rows.map((r) => r.publishedAt!.getTime() - r.slotAt!.getTime());
    for (const [i, ms] of lateness.entries()) expect(ms, titles[i]).toBeGreaterThanOrEqual(0);
    for (const i of [0, 1, 2, 4]) expect(lateness[i], titles[i]).toBeLessThan(60_000);
    expect(lateness[3]).toBeGreaterThanOrEqual(10 * HOUR);
    expect(done[3]!.stateLabel).toBe("Published 10 h late");
    expect(done.filter((i) => i.late).map((i) => i.title)).toEqual(["Coral cities"]);

    // the kit is in every video: the project's format, length, voice speed, captions and music, the music's mood
    const runs = await prisma.videoRun.findMany({ where: { channelIdea: { channelId: channel.id } }, include: { project: { include: { musicTracks: true } } } });
    expect(runs).toHaveLength(5);
    for (const run of runs) {
      expect(run.project).toMatchObject({ voiceSpeed: 1.1, captionPreset: "outlined", captionPosition: "top", musicVolume: 12, resolution: "shorts", durationSeconds: 5 });
      expect(run.project!.musicTracks[0]!.prompt).toMatch(/^calm lo-fi background music for a video about/);
    }
    // the calendar shows both weeks with each slot's state
    const cal = await channelCalendar(user.id, channel.id, { nowMs: channelNow(), weeksBack: 1, weeks: 1 });
    expect(cal.weeks.flatMap((w) => w.slots.map((s) => `${s.label}: ${s.stateLabel}`))).toEqual([
      "Tue 8 Jan, 18:00: Published",
      "Thu 10 Jan, 18:00: Published",
      "Sat 12 Jan, 10:00: Published",
      "Tue 15 Jan, 18:00: Published 10 h late",
      "Thu 17 Jan, 18:00: Published",
      "Sat 19 Jan, 10:00: Empty: add ideas to fill it",
    ]);
  });
});
