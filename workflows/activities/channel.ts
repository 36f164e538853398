// The channel workflow's one activity (issue 52, decision 235): channelStep reads the channel at the channel's time
// and moves its ideas on: a finished video becomes ready (or approved, by the channel's rule), ideas are placed in
// the free slots ahead, a video is started `leadHours` before its slot, an approved video is published once its slot
// has come. Each move is a guarded update (from the state it expects), so a step repeated after a crash or a retry
// moves nothing twice: an idea goes from approved to publishing once, and a run waiting to start is handed back to
// the workflow, whose start joins a run already going.
import { Prisma } from "~/generated/prisma/client";
import { CHANNEL_LIMITS, ChannelKitSchema, ScheduleSchema, UNFINISHED_IDEA_STATES, brandFromKit, channelCaption, optionsFromKit, platformPostOptions, slotsBetween, type ChannelPostProblem } from "~/lib/channel";
import { PLATFORM_NAMES, type Platform } from "~/lib/platform-rules";
import { assertCanUpload } from "~/core/permissions.server";
import { insertPlatformPost, livePostOf } from "~/core/platforms/platform-post-rows.server";
import { reconnectMessage } from "~/core/platforms/platform-tokens.server";
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
      if (!channel || channel.paused) return { stop: true, make: [], publish: [], posts: [], nextAtMs: null, busy: false };
      const kit = ChannelKitSchema.parse(channel.kit);
      const schedule = ScheduleSchema.parse(channel.schedule);
      const leadMs = channel.leadHours * 3600_000;
      const hasYoutube = channel.accounts.some((a) => a.platform === "youtube");
      // TikTok and Instagram: one platform post per account at the slot, the publish step's own (decision 271)
      const postAccounts = channel.accounts.filter((a): a is typeof a & { platform: Platform } => a.platform === "tiktok" || a.platform === "instagram");
      const postsSomewhere = hasYoutube || postAccounts.length > 0;

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
        } else {
          // publishing: done when YouTube's upload (if it went) and every platform post have ended; published when
          // at least one place has the video, each refusal kept on its own post (the idea's per-platform states)
          const problems = (idea.postProblems ?? []) as ChannelPostProblem[];
          const youtubeGoes = hasYoutube && !problems.some((p) => p.platform === "youtube");
          const posts = run.projectId && postAccounts.length ? await prisma.platformPost.findMany({ where: { userId, projectId: run.projectId, connectionId: { in: postAccounts.map((a) => a.connectionRef) } }, orderBy: { createdAt: "desc" } }) : [];
          // the newest post per account (a retried idea may have an older, failed one)
          const newest = postAccounts.map((a) => posts.find((p) => p.connectionId === a.connectionRef)).filter((p) => p !== undefined);
          const youtubePending = youtubeGoes && !run.youtubeUrl && (run.status === "queued" || run.status === "running");
          if (youtubePending || newest.some((p) => ["scheduled", "posting", "processing"].includes(p.status))) {
            busy = true;
            continue;
          }
          const failures: string[] = [];
          if (youtubeGoes && !run.youtubeUrl) failures.push(`YouTube: ${run.error ?? `the upload was ${run.status}`}`);
          for (const p of newest) if (p.status === "failed" || p.status === "cancelled") failures.push(`${PLATFORM_NAMES[p.platform as Platform]}: ${p.error ?? p.status}`);
          const posted = (run.youtubeUrl ? 1 : 0) + newest.filter((p) => p.status === "published" || p.status === "sent_to_inbox").length;
          if (posted > 0) {
            await prisma.channelIdea.updateMany({ where: { id: idea.id, status: "publishing" }, data: { status: "published", publishedAt: idea.publishedAt ?? now, youtubeUrl: run.youtubeUrl, error: failures.length ? `Not posted everywhere: ${failures.join(" ")}` : null } });
          } else {
            // YouTube alone keeps the words it always had
            const why = failures.length === 1 && youtubeGoes && !newest.length ? (run.error ?? run.status) : failures.join(" ") || "nothing could be posted";
            await prisma.channelIdea.updateMany({ where: { id: idea.id, status: "publishing" }, data: { status: "failed", error: `Publishing failed: ${why}` } });
          }
        }
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

      // 4. approved videos whose slot has come: approved -> publishing once; in the same transaction the run is told
      // to upload to YouTube and each TikTok / Instagram account gets its post row (decision 271), so a retried step
      // writes nothing twice and the workflow starts each post's workflow under the post's own id
      const publish: ChannelStep["publish"] = [];
      const posts: ChannelStep["posts"] = [];
      if (postsSomewhere) {
        const ready = await prisma.channelIdea.findMany({ where: { channelId, status: "approved", slotAt: { lte: now } }, include: { run: true }, orderBy: { slotAt: "asc" } });
        for (const idea of ready) {
          const run = idea.run;
          if (!run?.projectId) continue;
          const projectId = run.projectId;
          const cannot = async (refusal: string) => {
            await prisma.channelIdea.updateMany({ where: { id: idea.id, status: "approved" }, data: { error: `Cannot publish yet: ${refusal}` } });
          };
          try {
            await assertCanUpload(userId);
          } catch (e) {
            const refusal = refusalOf(e);
            if (!refusal) throw e;
            await cannot(refusal);
            continue;
          }
          const problems: ChannelPostProblem[] = [];
          const previous = run.options as unknown as MakeVideoOptions;
          const options: MakeVideoOptions = { ...previous, upload: true, publishAt: undefined, privacyStatus: kit.privacyStatus, youtubeCategoryId: kit.youtubeCategoryId };
          let youtubeGoes = hasYoutube;
          if (hasYoutube) {
            try {
              await assertMakeVideoAllowed(userId, options);
            } catch (e) {
              const refusal = refusalOf(e);
              if (!refusal) throw e;
              youtubeGoes = false;
              problems.push({ platform: "youtube", connectionRef: channel.accounts.find((a) => a.platform === "youtube")!.connectionRef, reason: refusal });
            }
          }
          // the video each platform gets: the run's finished one, as the publish step picks it
          const video = postAccounts.length ? await prisma.renderedVideo.findFirst({ where: { projectId, status: "completed", videoUrl: { not: null } }, orderBy: { createdAt: "desc" } }) : null;
          const targets: { platform: Platform; connectionId: string; options: Record<string, unknown> }[] = [];
          for (const account of postAccounts) {
            const connection = await prisma.platformConnection.findFirst({ where: { id: account.connectionRef, userId, platform: account.platform } });
            if (!connection) problems.push({ platform: account.platform, connectionRef: account.connectionRef, reason: `This ${PLATFORM_NAMES[account.platform]} account is no longer connected: connect it in Settings and choose it for the channel again.` });
            else if (connection.revokedAt) problems.push({ platform: account.platform, connectionRef: account.connectionRef, reason: reconnectMessage(account.platform) });
            else if (!video) problems.push({ platform: account.platform, connectionRef: account.connectionRef, reason: "The video has no finished file to post." });
            else targets.push({ platform: account.platform, connectionId: connection.id, options: platformPostOptions(account.platform, account.postOptions) });
          }
          if (!youtubeGoes && !targets.length) {
            // nowhere it could go: it waits, approved, and says why (a reconnected account posts it at the next step)
            await cannot(problems.map((p) => `${PLATFORM_NAMES[p.platform]}: ${p.reason}`).join(" "));
            continue;
          }
          const claimed = await prisma.$transaction(
            async (tx) => {
              const moved = await tx.channelIdea.updateMany({
                where: { id: idea.id, status: "approved" },
                data: { status: "publishing", publishedAt: now, error: null, postProblems: problems.length ? (problems as unknown as Prisma.InputJsonValue) : Prisma.DbNull },
              });
              if (moved.count === 0) return null;
              if (youtubeGoes) await tx.videoRun.update({ where: { id: run.id }, data: { options: options as unknown as Prisma.InputJsonValue, status: "queued", stage: "upload", error: null, completedAt: null } });
              const rows: { id: string; platform: Platform }[] = [];
              for (const target of targets) {
                // already on that account (a retried idea whose post there went out): not posted again
                if (await livePostOf(tx, video!.id, target.connectionId)) continue;
                const row = await insertPlatformPost(
                  tx,
                  { userId, projectId, videoId: video!.id, connectionId: target.connectionId, platform: target.platform, caption: channelCaption(target.platform, idea.title, kit), options: target.options, scheduledAt: null },
                  { withWorkflowId: true },
                );
                rows.push({ id: row.id, platform: target.platform });
              }
              return rows;
            },
            { maxWait: POOL_WAIT_MS },
          );
          if (!claimed) continue;
          if (youtubeGoes) publish.push({ ideaId: idea.id, runId: run.id, projectId });
          for (const row of claimed) posts.push({ ideaId: idea.id, postId: row.id, projectId, platform: row.platform });
        }
        const unstarted = await prisma.channelIdea.findMany({ where: { channelId, status: "publishing", run: { status: "queued" } }, include: { run: true } });
        for (const idea of unstarted) if (idea.run?.projectId && !publish.some((p) => p.ideaId === idea.id)) publish.push({ ideaId: idea.id, runId: idea.run.id, projectId: idea.run.projectId });
        // posts written by a step whose answer was lost: handed back until their workflow has begun (a start of one
        // that runs or ran already is refused by Temporal, the id being the post's)
        const publishing = await prisma.channelIdea.findMany({ where: { channelId, status: "publishing" }, select: { id: true, run: { select: { projectId: true } } } });
        const byProject = new Map(publishing.filter((i) => i.run?.projectId).map((i) => [i.run!.projectId!, i.id] as const));
        if (byProject.size && postAccounts.length) {
          const waiting = await prisma.platformPost.findMany({ where: { userId, projectId: { in: [...byProject.keys()] }, connectionId: { in: postAccounts.map((a) => a.connectionRef) }, status: "posting", startedAt: null, workflowId: { not: null } } });
          for (const post of waiting) if (!posts.some((p) => p.postId === post.id)) posts.push({ ideaId: byProject.get(post.projectId)!, postId: post.id, projectId: post.projectId, platform: post.platform as Platform });
        }
      }

      // 5. when to look again: the next start ahead of a slot, or the next slot of an approved video
      const upcoming = await prisma.channelIdea.findMany({ where: { channelId, status: { in: ["queued", "approved"] }, slotAt: { gt: now } }, select: { status: true, slotAt: true } });
      const times = upcoming.map((i) => (i.status === "queued" ? i.slotAt!.getTime() - leadMs : i.slotAt!.getTime())).filter((t) => t > nowMs);
      if (rateFreesAtMs !== null && rateFreesAtMs > nowMs) times.push(rateFreesAtMs);
      const nextAtMs = times.length ? Math.min(...times) : null;
      return { stop: false, make, publish, posts, nextAtMs, busy: busy || make.length > 0 || publish.length > 0 || posts.length > 0 };
    },
  };
}

export type ChannelActivities = ReturnType<typeof createChannelActivities>;
