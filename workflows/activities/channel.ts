// The channel workflow's one activity (issue 52, decision 235): channelStep reads the channel at the channel's time
// and moves its ideas on: a finished video becomes ready (or approved, by the channel's rule), ideas are placed in
// the free slots ahead, a video is started `leadHours` before its slot, an approved video is published once its slot
// has come. Each move is a guarded update (from the state it expects), so a step repeated after a crash or a retry
// moves nothing twice: an idea goes from approved to publishing once, and a run waiting to start is handed back to
// the workflow, whose start joins a run already going.
import type { Prisma } from "~/generated/prisma/client";
import { CHANNEL_LIMITS, CHANNEL_PLATFORMS, ChannelKitSchema, ScheduleSchema, UNFINISHED_IDEA_STATES, brandFromKit, optionsFromKit, slotsBetween } from "~/lib/channel";
import type { MakeVideoOptions } from "~/lib/make-video-options";
import { POOL_WAIT_MS, prisma } from "~/core/db.server";
import { isRefusal } from "~/core/refusal.server";
import { assertMakeVideoAllowed, createProjectForRun } from "~/core/video-run.server";
import { CONCURRENCY_LIMITS } from "~/lib/limits";
import { CHANNEL_HORIZON_DAYS, type ChannelStep } from "../shared/channel";
import { makeVideoWorkflowId } from "../shared/make-video";

/** The words of a refusal (the core's typed Refusal from the plan checks), or null for any other error. */
function refusalOf(e: unknown): string | null {
  return isRefusal(e) ? e.message : null;
}

type StepInput = { channelId: string; userId: string; nowMs: number };

export function createChannelActivities() {
  return {
    async channelStep(input: StepInput): Promise<ChannelStep> {
      const { channelId, userId, nowMs } = input;
      const now = new Date(nowMs);
      const channel = await prisma.channel.findFirst({ where: { id: channelId, userId }, include: { accounts: true } });
      if (!channel || channel.paused) return { stop: true, make: [], publish: [], nextAtMs: null, busy: false };
      const kit = ChannelKitSchema.parse(channel.kit);
      const schedule = ScheduleSchema.parse(channel.schedule);
      const leadMs = channel.leadHours * 3600_000;
      const postsSomewhere = channel.accounts.some((a) => (CHANNEL_PLATFORMS as readonly string[]).includes(a.platform));

      // 1. ideas in flight, from their runs: made -> ready (or approved by the rule); published -> published; failures in words
      const inFlight = await prisma.channelIdea.findMany({ where: { channelId, status: { in: ["making", "publishing"] } }, include: { run: true } });
      let busy = false;
      for (const idea of inFlight) {
        const run = idea.run;
        if (!run) {
          await prisma.channelIdea.updateMany({ where: { id: idea.id, status: idea.status }, data: { status: "failed", error: "Its video was deleted." } });
          continue;
        }
        if (idea.status === "making") {
          if (run.status === "completed") {
            const auto = channel.approval === "auto";
            await prisma.channelIdea.updateMany({ where: { id: idea.id, status: "making" }, data: { status: auto ? "approved" : "ready", approvedAt: auto ? now : null, error: null } });
          } else if (run.status === "failed" || run.status === "cancelled") {
            await prisma.channelIdea.updateMany({ where: { id: idea.id, status: "making" }, data: { status: "failed", error: run.error ?? `The video was ${run.status}.` } });
          } else busy = true;
        } else if (run.youtubeUrl) {
          await prisma.channelIdea.updateMany({ where: { id: idea.id, status: "publishing" }, data: { status: "published", publishedAt: idea.publishedAt ?? now, youtubeUrl: run.youtubeUrl, error: null } });
        } else if (run.status === "failed" || run.status === "cancelled") {
          await prisma.channelIdea.updateMany({ where: { id: idea.id, status: "publishing" }, data: { status: "failed", error: `Publishing failed: ${run.error ?? run.status}` } });
        } else busy = true;
      }

      // 2. ideas to be posted without a slot take the free slots ahead, in queue order: queued ones, and made or
      // making ones a schedule change or a move took theirs from (decision 251): none is left never to be posted
      const horizon = nowMs + CHANNEL_HORIZON_DAYS * 86400_000;
      const slots = slotsBetween(schedule, channel.timeZone, nowMs, horizon);
      if (slots.length) {
        const taken = new Set(
          (await prisma.channelIdea.findMany({ where: { channelId, slotAt: { gte: now } }, select: { slotAt: true } })).map((i) => i.slotAt!.getTime()),
        );
        const free = slots.filter((s) => !taken.has(s.getTime()));
        if (free.length) {
          const waiting = await prisma.channelIdea.findMany({ where: { channelId, status: { in: [...UNFINISHED_IDEA_STATES] }, slotAt: null }, orderBy: [{ position: "asc" }, { createdAt: "asc" }], take: free.length, select: { id: true } });
          for (const [i, idea] of waiting.entries()) {
            await prisma.channelIdea.updateMany({ where: { id: idea.id, slotAt: null, status: { in: [...UNFINISHED_IDEA_STATES] } }, data: { slotAt: free[i]! } }).catch(() => null);
          }
        }
      }

      // 3. videos due to start (leadHours before their slot, or at once when the slot is nearer), and starts a crash interrupted
      const make: ChannelStep["make"] = [];
      const due = await prisma.channelIdea.findMany({ where: { channelId, status: "queued", slotAt: { not: null, lte: new Date(nowMs + leadMs) } }, orderBy: { slotAt: "asc" } });
      // never more videos in the making than the creator could start by hand (CONCURRENCY_LIMITS, as the web's
      // run slots count them): the rest stay queued, earliest slot first, and start as those finish
      let open = await prisma.videoRun.count({ where: { userId, status: { in: ["queued", "running"] } } });
      // and never more than CHANNEL_LIMITS.channelVideosPerHour started by the creator's channels in the last hour
      // of channel time (decision 251): counted from the database every worker shares, as the run limit is
      const hourAgo = new Date(nowMs - 3600_000);
      const startedLastHour = await prisma.videoRun.findMany({ where: { userId, startedAt: { gt: hourAgo }, channelIdea: { isNot: null } }, select: { startedAt: true }, orderBy: { startedAt: "asc" } });
      let startedCount = startedLastHour.length;
      let rateFreesAtMs: number | null = null;
      for (const idea of due) {
        if (open >= CONCURRENCY_LIMITS.pipelineRunsPerUser) break;
        if (startedCount >= CHANNEL_LIMITS.channelVideosPerHour) {
          // look again when the oldest start of the hour leaves it
          rateFreesAtMs = (startedLastHour[0]?.startedAt?.getTime() ?? nowMs) + 3600_000;
          break;
        }
        const options = optionsFromKit(kit, idea);
        try {
          await assertMakeVideoAllowed(userId, options);
          // claim, project, run and link in ONE transaction (decision 251): a crash, timeout or error anywhere
          // leaves none of them, so the free plan's one project slot is never held by an orphan and the retry
          // starts from the queued idea again; an idea another step claimed first makes nothing
          const started = await prisma.$transaction(async (tx) => {
            const claimed = await tx.channelIdea.updateMany({ where: { id: idea.id, status: "queued" }, data: { status: "making", error: null } });
            if (claimed.count === 0) return null;
            const project = await createProjectForRun(userId, options, false, tx);
            // the kit's cards, logo, watermark and caption look go with the project to its render (decision 249)
            await tx.project.update({ where: { id: project.id }, data: { brand: brandFromKit(kit) as unknown as Prisma.InputJsonValue } });
            const run = await tx.videoRun.create({
              data: { userId, projectId: project.id, options: options as unknown as Prisma.InputJsonValue, status: "queued", stage: "queued", workflowId: makeVideoWorkflowId(project.id), startedAt: now },
            });
            await tx.channelIdea.update({ where: { id: idea.id }, data: { runId: run.id } });
            return { run, project };
          }, { maxWait: POOL_WAIT_MS });
          if (!started) continue;
          const project = started.project;
          make.push({ ideaId: idea.id, runId: started.run.id, projectId: project.id });
          open++;
          startedCount++;
        } catch (e) {
          const refusal = refusalOf(e);
          if (!refusal) throw e;
          await prisma.channelIdea.updateMany({ where: { id: idea.id, status: "queued" }, data: { status: "failed", error: `Could not start: ${refusal}` } });
        }
      }
      const notStarted = await prisma.channelIdea.findMany({ where: { channelId, status: "making", run: { status: "queued" } }, include: { run: true } });
      for (const idea of notStarted) if (idea.run?.projectId && !make.some((m) => m.ideaId === idea.id)) make.push({ ideaId: idea.id, runId: idea.run.id, projectId: idea.run.projectId });

      // 4. approved videos whose slot has come: approved -> publishing once, the run told to upload
      const publish: ChannelStep["publish"] = [];
      if (postsSomewhere) {
        const ready = await prisma.channelIdea.findMany({ where: { channelId, status: "approved", slotAt: { lte: now } }, include: { run: true }, orderBy: { slotAt: "asc" } });
        for (const idea of ready) {
          const run = idea.run;
          if (!run?.projectId) continue;
          const previous = run.options as unknown as MakeVideoOptions;
          const options: MakeVideoOptions = { ...previous, upload: true, publishAt: undefined, privacyStatus: kit.privacyStatus, youtubeCategoryId: kit.youtubeCategoryId };
          try {
            await assertMakeVideoAllowed(userId, options);
          } catch (e) {
            const refusal = refusalOf(e);
            if (!refusal) throw e;
            await prisma.channelIdea.updateMany({ where: { id: idea.id, status: "approved" }, data: { error: `Cannot publish yet: ${refusal}` } });
            continue;
          }
          const claimed = await prisma.$transaction(async (tx) => {
            const moved = await tx.channelIdea.updateMany({ where: { id: idea.id, status: "approved" }, data: { status: "publishing", publishedAt: now, error: null } });
            if (moved.count === 0) return false;
            await tx.videoRun.update({ where: { id: run.id }, data: { options: options as unknown as Prisma.InputJsonValue, status: "queued", stage: "upload", error: null, completedAt: null } });
            return true;
          });
          if (claimed) publish.push({ ideaId: idea.id, runId: run.id, projectId: run.projectId });
        }
        const unstarted = await prisma.channelIdea.findMany({ where: { channelId, status: "publishing", run: { status: "queued" } }, include: { run: true } });
        for (const idea of unstarted) if (idea.run?.projectId && !publish.some((p) => p.ideaId === idea.id)) publish.push({ ideaId: idea.id, runId: idea.run.id, projectId: idea.run.projectId });
      }

      // 5. when to look again: the next start ahead of a slot, or the next slot of an approved video
      const upcoming = await prisma.channelIdea.findMany({ where: { channelId, status: { in: ["queued", "approved"] }, slotAt: { gt: now } }, select: { status: true, slotAt: true } });
      const times = upcoming.map((i) => (i.status === "queued" ? i.slotAt!.getTime() - leadMs : i.slotAt!.getTime())).filter((t) => t > nowMs);
      if (rateFreesAtMs !== null && rateFreesAtMs > nowMs) times.push(rateFreesAtMs);
      const nextAtMs = times.length ? Math.min(...times) : null;
      return { stop: false, make, publish, nextAtMs, busy: busy || make.length > 0 || publish.length > 0 };
    },
  };
}

export type ChannelActivities = ReturnType<typeof createChannelActivities>;
