// The channel's step against the database, without a worker (decision 251): a start that fails between the claim
// and its commit leaves no project behind and the retry makes exactly one; a made video displaced by a move, or
// whose slot a schedule change removed, gets a new slot of the channel's schedule, and the calendar shows it there.
import { afterAll, describe, expect, it } from "vitest";
import { prisma } from "~/core/db.server";
import { CHANNEL_LIMITS, ChannelInputSchema, ScheduleSchema, slotsBetween } from "~/lib/channel";
import { changeIdea, channelCalendar, createChannel, updateChannel } from "~/server/channels.server";
import { createChannelActivities } from "../../workflows/activities/channel";
import { createTestUser } from "../support/auth";

afterAll(async () => {
  await prisma.$disconnect();
});

const DAY = 86400_000;

/** A paused channel (so the doors wake no workflow); `step` runs the channel's step as if it were not paused. */
async function channelFor(userId: string, schedule: { day: number; time: string }[], leadHours: number) {
  const input = ChannelInputSchema.parse({ name: "Tide Facts", timeZone: "UTC", schedule, approval: "manual", leadHours, paused: true, kit: { format: "9:16", duration: 5 } });
  const channel = await createChannel(userId, input);
  const step = async (nowMs = Date.now()) => {
    await prisma.channel.update({ where: { id: channel.id }, data: { paused: false } });
    try {
      return await createChannelActivities().channelStep({ channelId: channel.id, userId, nowMs });
    } finally {
      await prisma.channel.update({ where: { id: channel.id }, data: { paused: true } });
    }
  };
  return { channel, step };
}

async function isSlotOf(channelId: string, at: Date | null): Promise<boolean> {
  if (!at) return false;
  const channel = await prisma.channel.findUniqueOrThrow({ where: { id: channelId } });
  return slotsBetween(ScheduleSchema.parse(channel.schedule), channel.timeZone, at.getTime(), at.getTime() + 1).length === 1;
}

describe("the channel's step", () => {
  it("a start that fails before its commit leaves no project; the retry makes exactly one", { timeout: 60_000 }, async () => {
    const user = await createTestUser();
    const { channel, step } = await channelFor(user.id, [{ day: 1, time: "18:00" }, { day: 4, time: "18:00" }], 168);
    await prisma.channelIdea.create({ data: { channelId: channel.id, userId: user.id, title: "Why tides turn", topic: "tides", position: 1 } });
    // the database refuses this creator's run row: the step fails after its claim and its project were written
    const trigger = `fail_run_${user.id}`;
    await prisma.$executeRawUnsafe(
      `CREATE FUNCTION "${trigger}"() RETURNS trigger AS $$ BEGIN IF NEW."userId" = '${user.id}' THEN RAISE EXCEPTION 'worker died before the commit'; END IF; RETURN NEW; END $$ LANGUAGE plpgsql`,
    );
    await prisma.$executeRawUnsafe(`CREATE TRIGGER "${trigger}" BEFORE INSERT ON "VideoRun" FOR EACH ROW EXECUTE FUNCTION "${trigger}"()`);
    try {
      await expect(step()).rejects.toThrow(/worker died before the commit/);
    } finally {
      await prisma.$executeRawUnsafe(`DROP TRIGGER "${trigger}" ON "VideoRun"`);
      await prisma.$executeRawUnsafe(`DROP FUNCTION "${trigger}"()`);
    }
    expect(await prisma.project.count({ where: { userId: user.id } })).toBe(0);
    const waiting = await prisma.channelIdea.findFirstOrThrow({ where: { channelId: channel.id } });
    expect(waiting).toMatchObject({ status: "queued", runId: null });

    const retried = await step();
    expect(retried.make).toHaveLength(1);
    await step();
    expect(await prisma.project.count({ where: { userId: user.id } })).toBe(1);
    const making = await prisma.channelIdea.findFirstOrThrow({ where: { channelId: channel.id }, include: { run: true } });
    expect(making.status).toBe("making");
    expect(making.run?.projectId).toBe(retried.make[0]!.projectId);
  });

  it("a creator's channels start at most CHANNEL_LIMITS.channelVideosPerHour videos an hour; the next waits for the hour to free", { timeout: 60_000 }, async () => {
    const user = await createTestUser();
    const { channel, step } = await channelFor(user.id, [{ day: 1, time: "18:00" }, { day: 4, time: "18:00" }], 168);
    const oldest = Date.now() - 50 * 60_000;
    for (let i = 0; i < CHANNEL_LIMITS.channelVideosPerHour; i++) {
      const run = await prisma.videoRun.create({ data: { userId: user.id, options: {}, status: "completed", stage: "done", startedAt: new Date(oldest + i * 60_000) } });
      await prisma.channelIdea.create({ data: { channelId: channel.id, userId: user.id, title: `Made ${i}`, topic: "tides", position: i + 1, status: "published", runId: run.id } });
    }
    const waiting = await prisma.channelIdea.create({ data: { channelId: channel.id, userId: user.id, title: "Why tides turn", topic: "tides", position: 100 } });
    const result = await step();
    expect(result.make).toEqual([]);
    expect(result.nextAtMs).toBe(oldest + 3600_000);
    expect(await prisma.channelIdea.findUniqueOrThrow({ where: { id: waiting.id } })).toMatchObject({ status: "queued", runId: null });
    // an hour on, the oldest start has left the window: the idea starts
    const later = await step(oldest + 3600_000 + 1000);
    expect(later.make.map((m) => m.ideaId)).toEqual([waiting.id]);
  });

  it("an approved video displaced by a move gets another slot instead of never being posted", { timeout: 60_000 }, async () => {
    const user = await createTestUser();
    const schedule = [1, 2, 3, 4, 5, 6, 7].map((day) => ({ day, time: "09:00" }));
    const { channel, step } = await channelFor(user.id, schedule, 1);
    const slots = slotsBetween(ScheduleSchema.parse(schedule), "UTC", Date.now() + 2 * DAY, Date.now() + 6 * DAY);
    const approved = await prisma.channelIdea.create({ data: { channelId: channel.id, userId: user.id, title: "Moon pull", topic: "tides", position: 1, status: "approved", approvedAt: new Date(), slotAt: slots[0]! } });
    const mover = await prisma.channelIdea.create({ data: { channelId: channel.id, userId: user.id, title: "Spring tides", topic: "tides", position: 2 } });

    const moved = await changeIdea(user.id, channel.id, mover.id, { action: "move", slotAt: slots[0]!.toISOString() });
    expect(moved.slotAt).toBe(slots[0]!.toISOString());
    await step();
    const displaced = await prisma.channelIdea.findUniqueOrThrow({ where: { id: approved.id } });
    expect(displaced.status).toBe("approved");
    expect(displaced.slotAt).not.toBeNull();
    expect(displaced.slotAt!.getTime()).toBeGreaterThan(Date.now());
    expect(await isSlotOf(channel.id, displaced.slotAt)).toBe(true);
    expect(displaced.slotAt!.getTime()).not.toBe(slots[0]!.getTime());
  });

  it("a schedule change moves made and approved videos to the new slots, where the calendar shows them", { timeout: 60_000 }, async () => {
    const user = await createTestUser();
    const monday = [{ day: 1, time: "18:00" }];
    const { channel, step } = await channelFor(user.id, monday, 1);
    const [oldSlot] = slotsBetween(ScheduleSchema.parse(monday), "UTC", Date.now() + DAY, Date.now() + 9 * DAY);
    const approved = await prisma.channelIdea.create({ data: { channelId: channel.id, userId: user.id, title: "Moon pull", topic: "tides", position: 1, status: "approved", approvedAt: new Date(), slotAt: oldSlot! } });
    const ready = await prisma.channelIdea.create({ data: { channelId: channel.id, userId: user.id, title: "Neap tides", topic: "tides", position: 2, status: "ready", slotAt: new Date(oldSlot!.getTime() + 7 * DAY) } });

    await updateChannel(user.id, channel.id, { schedule: [{ day: 3, time: "09:30" }] });
    await step();
    for (const id of [approved.id, ready.id]) {
      const idea = await prisma.channelIdea.findUniqueOrThrow({ where: { id } });
      expect(await isSlotOf(channel.id, idea.slotAt)).toBe(true);
      expect(idea.slotAt!.getUTCDay()).toBe(3);
    }
    const calendar = await channelCalendar(user.id, channel.id, { weeks: 4 });
    const shown = calendar.weeks.flatMap((w) => w.slots).filter((s) => s.idea).map((s) => s.idea!.title);
    expect(shown).toEqual(["Moon pull", "Neap tides"]);
    expect(calendar.unscheduled).toEqual([]);
  });
});
