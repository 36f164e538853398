// Channels as every door sees them (issue 52, decisions 234-236): a creator's channels with their brand kit,
// platform accounts and weekly schedule; each channel's queue of ideas (typed, pasted, CSV); the calendar of its
// weeks with each slot's state and what it waits for; approving and moving videos. Strictly per user: another
// user's channel or idea is a 404. Every change wakes the channel's workflow (started when missing), which does the
// making and publishing (workflows/channel.ts).
import { parse as parseCsv } from "csv-parse/sync";
import type { Channel, ChannelIdea, PlatformConnection, PlatformPost, Prisma, VideoRun } from "~/generated/prisma/client";
import { PLATFORM_NAMES, type Platform } from "~/lib/platform-rules";
import { platformEnv } from "~/core/platforms/platform-env.server";
import { reconnectMessage } from "~/core/platforms/platform-tokens.server";
import {
  AddIdeasSchema,
  CHANNEL_LIMITS,
  ChannelInstagramOptionsSchema,
  ChannelTikTokOptionsSchema,
  ChannelInputSchema,
  ChannelKitSchema,
  ChannelPatchSchema,
  IdeaPatchSchema,
  ScheduleSchema,
  UNFINISHED_IDEA_STATES,
  formatSlot,
  ideasFromText,
  slotsBetween,
  weekStartOf,
  type ChannelInput,
  type ChannelInstagramOptions,
  type ChannelKit,
  type ChannelPostProblem,
  type ChannelTikTokOptions,
  type ScheduleSlot,
} from "~/lib/channel";
import type { z } from "zod";
import type { channelWorkflow } from "../../workflows/channel";
import { channelChangedSignal, channelWorkflowId, CHANNEL_LATE_AFTER_MS, type ChannelClock, type ChannelWorkflowInput } from "../../workflows/shared/channel";
import { MAKE_VIDEO_STAGE_LABELS, type MakeVideoPosition } from "../../workflows/shared/make-video";
import { prisma } from "~/core/db.server";
import { getEnv } from "~/core/env.server";
import { getTemporalClient, workflowIsRunning } from "./temporal.server";
import { refusal } from "~/core/refusal.server";
import { getProviderKeys } from "~/core/settings.server";
import { textProviderFor } from "~/providers/index.server";
import { ProviderError } from "~/providers/errors";

export { AddIdeasSchema, ChannelInputSchema, ChannelPatchSchema, IdeaPatchSchema };

export type ChannelAccountView = {
  platform: string;
  connectionRef: string;
  label: string;
  connected: boolean;
  /** TikTok: who sees the posts, interactions, the consent; Instagram: share to feed (decision 271). */
  tiktok?: ChannelTikTokOptions;
  instagram?: ChannelInstagramOptions;
};
export type ChannelView = {
  id: string;
  name: string;
  timeZone: string;
  kit: ChannelKit;
  schedule: ScheduleSlot[];
  approval: "manual" | "auto";
  leadHours: number;
  paused: boolean;
  accounts: ChannelAccountView[];
  counts: { queued: number; making: number; ready: number; approved: number; published: number; failed: number };
  createdAt: string;
};

export type IdeaState = "queued" | "making" | "ready" | "approved" | "publishing" | "published" | "failed";
export type IdeaView = {
  id: string;
  title: string;
  topic: string;
  source: string;
  position: number;
  status: IdeaState;
  slotAt: string | null;
  /** The slot in the channel's zone, in words. */
  slotLabel: string | null;
  /** The state in words, with what it waits for ("Waiting for your approval", "Being made: Rendering the video (64%)"). */
  stateLabel: string;
  /** The slot passed and it is not published (or it was published this late, in minutes). */
  late: boolean;
  lateMinutes: number | null;
  videoId: string | null;
  videoPage: string | null;
  youtubeUrl: string | null;
  error: string | null;
  /** Where it was (or is being) posted: one entry per platform account, with its state, link or reason (decision 271). */
  posts: IdeaPostView[];
};

export type IdeaPostState = "posting" | "processing" | "published" | "sent_to_inbox" | "failed" | "cancelled" | "not_posted";
export type IdeaPostView = {
  platform: "youtube" | "tiktok" | "instagram";
  /** "YouTube", "TikTok · Fake Bee Channel", "Instagram Reels · fakebees" */
  account: string;
  state: IdeaPostState;
  /** "Published", "Posting (40%)", "Failed: <reason>" */
  label: string;
  link: string | null;
  reason: string | null;
};

type Extra = { clock?: ChannelClock; tuning?: ChannelWorkflowInput["tuning"]; pollMs?: number };
/** Test knobs a channel's workflow keeps across restarts of it (never set by a door). */
const testKnobs = new Map<string, Extra>();

// ── Channels ───────────────────────────────────────────────────────────────────────────────────────
async function requireOwnChannel(userId: string, id: string) {
  const channel = await prisma.channel.findFirst({ where: { id, userId }, include: { accounts: true } });
  if (!channel) throw refusal(404, "Channel not found.", { field: "id" });
  return channel;
}

/**
 * The accounts asked for, each checked to be this user's live connection (YouTube: the account's one connection;
 * TikTok and Instagram: the named PlatformConnection, or the only one of that platform), with their post options.
 */
async function resolveAccounts(userId: string, accounts: ChannelInput["accounts"]) {
  const out: { platform: string; connectionRef: string; postOptions?: Prisma.InputJsonValue }[] = [];
  for (const [i, a] of accounts.entries()) {
    const field = `accounts.${i}.connectionRef`;
    if (a.platform === "youtube") {
      const connection = await prisma.youtubeConnection.findUnique({ where: { userId }, select: { id: true, revokedAt: true } });
      if (!connection || connection.revokedAt || (a.connectionRef && a.connectionRef !== connection.id)) {
        throw refusal(409, "YouTube is not connected to this account. Connect it on the Upload page first.", { field, needsConnection: true });
      }
      if (!out.some((o) => o.platform === a.platform && o.connectionRef === connection.id)) out.push({ platform: a.platform, connectionRef: connection.id });
      continue;
    }
    const name = PLATFORM_NAMES[a.platform];
    const candidates = await prisma.platformConnection.findMany({ where: { userId, platform: a.platform, ...(a.connectionRef ? { id: a.connectionRef } : {}) }, select: { id: true, revokedAt: true } });
    if (!candidates.length) throw refusal(409, a.connectionRef ? `That ${name} account is not one of your connections.` : `${name} is not connected to this account. Connect it in Settings first.`, { field, needsConnection: true });
    if (candidates.length > 1) throw refusal(400, `You have ${candidates.length} ${name} accounts: choose one with connectionRef.`, { field });
    const connection = candidates[0]!;
    if (connection.revokedAt) throw refusal(409, reconnectMessage(a.platform), { field, needsConnection: true });
    if (a.platform === "tiktok" && a.tiktok?.mode === "direct" && !platformEnv().TIKTOK_APP_AUDITED && a.tiktok.privacyLevel !== "SELF_ONLY") {
      throw refusal(400, "TikTok has not audited this server's app yet, so its posts can only be private (Only me).", { field: `accounts.${i}.tiktok.privacyLevel` });
    }
    if (out.some((o) => o.platform === a.platform && o.connectionRef === connection.id)) continue;
    const postOptions = a.platform === "tiktok" ? a.tiktok! : (a.instagram ?? { shareToFeed: true });
    out.push({ platform: a.platform, connectionRef: connection.id, postOptions: postOptions as Prisma.InputJsonValue });
  }
  return out;
}

async function accountViews(userId: string, accounts: { platform: string; connectionRef: string; postOptions?: unknown }[]): Promise<ChannelAccountView[]> {
  if (!accounts.length) return [];
  const yt = await prisma.youtubeConnection.findUnique({ where: { userId }, select: { id: true, channelTitle: true, revokedAt: true } });
  const others = await prisma.platformConnection.findMany({ where: { userId, id: { in: accounts.map((a) => a.connectionRef) } }, select: { id: true, accountName: true, revokedAt: true } });
  return accounts.map((a) => {
    if (a.platform === "youtube") {
      const live = yt?.id === a.connectionRef && !yt.revokedAt;
      return { platform: a.platform, connectionRef: a.connectionRef, label: live ? `YouTube: ${yt!.channelTitle ?? "connected channel"}` : "YouTube (disconnected)", connected: live };
    }
    const platform = a.platform as Platform;
    const connection = others.find((c) => c.id === a.connectionRef);
    const live = !!connection && !connection.revokedAt;
    const label = `${PLATFORM_NAMES[platform]}: ${connection?.accountName ?? "account"}${connection ? (live ? "" : " (reconnect it in Settings)") : " (disconnected)"}`;
    const options = a.postOptions ?? {};
    return {
      platform: a.platform,
      connectionRef: a.connectionRef,
      label,
      connected: live,
      ...(platform === "tiktok" ? { tiktok: ChannelTikTokOptionsSchema.parse({ consent: true, ...(options as object) }) } : { instagram: ChannelInstagramOptionsSchema.parse(options) }),
    };
  });
}

async function toChannelView(channel: Channel & { accounts: { platform: string; connectionRef: string }[] }): Promise<ChannelView> {
  const grouped = await prisma.channelIdea.groupBy({ by: ["status"], where: { channelId: channel.id }, _count: true });
  const count = (s: string) => grouped.find((g) => g.status === s)?._count ?? 0;
  return {
    id: channel.id,
    name: channel.name,
    timeZone: channel.timeZone,
    kit: ChannelKitSchema.parse(channel.kit),
    schedule: ScheduleSchema.parse(channel.schedule),
    approval: channel.approval === "auto" ? "auto" : "manual",
    leadHours: channel.leadHours,
    paused: channel.paused,
    accounts: await accountViews(channel.userId, channel.accounts),
    counts: { queued: count("queued"), making: count("making"), ready: count("ready"), approved: count("approved"), published: count("published"), failed: count("failed") },
    createdAt: channel.createdAt.toISOString(),
  };
}

export async function listChannels(userId: string): Promise<ChannelView[]> {
  const channels = await prisma.channel.findMany({ where: { userId }, orderBy: { createdAt: "asc" }, include: { accounts: true } });
  return Promise.all(channels.map(toChannelView));
}

export async function getChannel(userId: string, id: string): Promise<ChannelView> {
  const channel = await requireOwnChannel(userId, id);
  await keepAwake(userId, channel);
  return toChannelView(channel);
}

/** The kit's logo must be a picture of the creator's own (an upload, e.g. their watermark image): decision 249. */
async function requireOwnLogo(userId: string, kit: ChannelKit | undefined): Promise<void> {
  if (!kit?.logoFileId) return;
  const file = await prisma.mediaFile.findFirst({ where: { id: kit.logoFileId, userId }, select: { mimeType: true } });
  if (!file || !file.mimeType.startsWith("image/")) throw refusal(400, "logoFileId must be one of your uploaded images.", { field: "kit.logoFileId" });
}

export async function createChannel(userId: string, input: ChannelInput, extra: Extra = {}): Promise<ChannelView> {
  if ((await prisma.channel.count({ where: { userId } })) >= CHANNEL_LIMITS.channels) throw refusal(409, `A creator has at most ${CHANNEL_LIMITS.channels} channels.`, { field: "name" });
  await requireOwnLogo(userId, input.kit);
  const accounts = await resolveAccounts(userId, input.accounts);
  const channel = await prisma.channel.create({
    data: {
      userId,
      name: input.name,
      timeZone: input.timeZone,
      kit: input.kit,
      schedule: input.schedule,
      approval: input.approval,
      leadHours: input.leadHours,
      paused: input.paused,
      workflowId: null,
      accounts: { create: accounts },
    },
    include: { accounts: true },
  });
  if (Object.keys(extra).length) testKnobs.set(channel.id, extra);
  await prisma.channel.update({ where: { id: channel.id }, data: { workflowId: channelWorkflowId(channel.id) } });
  await wakeChannel(userId, channel.id);
  return toChannelView(channel);
}

export async function updateChannel(userId: string, id: string, patch: z.output<typeof ChannelPatchSchema>): Promise<ChannelView> {
  await requireOwnChannel(userId, id);
  await requireOwnLogo(userId, patch.kit);
  const accounts = patch.accounts ? await resolveAccounts(userId, patch.accounts) : null;
  const scheduleChanged = patch.schedule !== undefined || patch.timeZone !== undefined;
  await prisma.$transaction(async (tx) => {
    await tx.channel.update({
      where: { id },
      data: {
        ...(patch.name !== undefined ? { name: patch.name } : {}),
        ...(patch.timeZone !== undefined ? { timeZone: patch.timeZone } : {}),
        ...(patch.kit !== undefined ? { kit: patch.kit } : {}),
        ...(patch.schedule !== undefined ? { schedule: patch.schedule } : {}),
        ...(patch.approval !== undefined ? { approval: patch.approval } : {}),
        ...(patch.leadHours !== undefined ? { leadHours: patch.leadHours } : {}),
        ...(patch.paused !== undefined ? { paused: patch.paused } : {}),
      },
    });
    if (accounts) {
      await tx.channelAccount.deleteMany({ where: { channelId: id } });
      if (accounts.length) await tx.channelAccount.createMany({ data: accounts.map((a) => ({ ...a, channelId: id })) });
    }
    // a new schedule or time zone: every idea not yet published leaves its slot ahead (an instant that may no longer
    // be a slot, hidden from the calendar yet still posted at) and the channel's step gives it one of the new slots
    // in queue order; a slot already passed stays (that video is late and posts at the next step)
    if (scheduleChanged) {
      await tx.channelIdea.updateMany({ where: { channelId: id, status: { in: [...UNFINISHED_IDEA_STATES] }, slotAt: { gt: new Date() } }, data: { slotAt: null } });
    }
  });
  await wakeChannel(userId, id);
  return getChannel(userId, id);
}

export async function deleteChannel(userId: string, id: string): Promise<{ id: string; deleted: true }> {
  await requireOwnChannel(userId, id);
  const workflowId = channelWorkflowId(id);
  if (await workflowIsRunning(workflowId)) await (await getTemporalClient()).workflow.getHandle(workflowId).terminate("The creator deleted the channel").catch(() => null);
  // the videos already made stay in the creator's videos; the ideas go with the channel
  await prisma.channel.deleteMany({ where: { id, userId } });
  testKnobs.delete(id);
  return { id, deleted: true };
}

/** Tells the channel's workflow something changed, starting it when it is not running (signal-with-start). */
export async function wakeChannel(userId: string, channelId: string): Promise<void> {
  // called after the change is saved: a Temporal that does not answer must not turn a saved change into an error
  // (the client would retry and make the channel or its ideas twice); the channel's next read wakes it again
  try {
    await startOrSignal(userId, channelId);
  } catch (e) {
    console.error(`channel ${channelId} could not be woken (saved; its next read tries again):`, e instanceof Error ? e.message : e);
  }
}

/** An unpaused channel whose workflow is not running (a wake that failed, a Temporal history lost) is started again. */
async function keepAwake(userId: string, channel: { id: string; paused: boolean; workflowId: string | null }): Promise<void> {
  if (channel.paused) return;
  const running = await workflowIsRunning(channel.workflowId ?? channelWorkflowId(channel.id)).catch(() => true);
  if (!running) await wakeChannel(userId, channel.id);
}

async function startOrSignal(userId: string, channelId: string): Promise<void> {
  const channel = await prisma.channel.findFirst({ where: { id: channelId, userId }, select: { paused: true } });
  if (!channel) return;
  const client = await getTemporalClient();
  if (channel.paused) {
    // a paused channel's workflow ends at its next step: wake it so that happens now (resuming starts it again)
    await client.workflow.getHandle(channelWorkflowId(channelId)).signal(channelChangedSignal).catch(() => null);
    return;
  }
  const knobs = testKnobs.get(channelId) ?? {};
  const input: ChannelWorkflowInput = { channelId, userId, ...knobs };
  await client.workflow.signalWithStart<typeof channelWorkflow, []>("channelWorkflow", {
    workflowId: channelWorkflowId(channelId),
    taskQueue: getEnv().TEMPORAL_TASK_QUEUE,
    args: [input],
    signal: channelChangedSignal,
    signalArgs: [],
    memo: { startedBy: `channel:${userId}`, channel: channelId },
  });
}

// ── Ideas ──────────────────────────────────────────────────────────────────────────────────────────
function csvIdeas(text: string): { title: string; topic?: string }[] {
  let records: Record<string, string>[];
  try {
    records = parseCsv(text, { columns: (h: string[]) => h.map((c) => c.trim().toLowerCase()), skip_empty_lines: true, trim: true, bom: true });
  } catch (e) {
    throw refusal(400, `csv could not be read: ${(e as Error).message}`, { field: "csv" });
  }
  if (!records.length) throw refusal(400, "csv has no rows under its header.", { field: "csv" });
  if (!("title" in records[0]!)) throw refusal(400, 'csv needs a header row with a "title" column (and optionally "topic").', { field: "csv" });
  return records.map((r) => ({ title: r.title ?? "", ...(r.topic ? { topic: r.topic } : {}) }));
}

/** Adds ideas (objects, pasted lines or CSV) to the end of the channel's queue; they take the next free slots. */
/**
 * The creator's text model's ideas for the channel (decision 250): from the kit's topic (or the channel's name) and
 * the titles of its ideas and videos so far, none of them repeated. Without a model (the offline writer) there is
 * nothing to suggest with: a 409 that says how to add ideas instead.
 */
async function suggestedIdeas(userId: string, channel: Channel, count: number): Promise<{ title: string; topic: string }[]> {
  const provider = textProviderFor(await getProviderKeys(userId));
  if (provider.source === "offline" || !provider.suggestVideoIdeas) {
    throw refusal(409, "Suggesting ideas needs a text model: save your Gemini API key in Settings. Without one, type, paste or import your ideas.", { field: "suggest", needsKey: "gemini" });
  }
  const kit = ChannelKitSchema.parse(channel.kit);
  const past = await prisma.channelIdea.findMany({ where: { channelId: channel.id }, orderBy: { position: "desc" }, take: 60, select: { title: true } });
  const pastTitles = past.map((p) => p.title);
  let ideas;
  try {
    ideas = await provider.suggestVideoIdeas({ channelTopic: kit.topic ?? channel.name, pastTitles, count, language: kit.language });
  } catch (e) {
    if (e instanceof ProviderError) throw refusal(502, `${provider.name} could not suggest ideas: ${e.message}`, { field: "suggest" });
    throw e;
  }
  const seen = new Set(pastTitles.map((t) => t.trim().toLowerCase()));
  return ideas.filter((i) => {
    const key = i.title.trim().toLowerCase();
    if (!key || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

export async function addIdeas(userId: string, channelId: string, body: z.output<typeof AddIdeasSchema>): Promise<IdeaView[]> {
  const channel = await requireOwnChannel(userId, channelId);
  const source = body.ideas ? "typed" : body.text !== undefined ? "pasted" : body.suggest ? "suggested" : "csv";
  const raw = body.ideas ?? (body.text !== undefined ? ideasFromText(body.text) : body.suggest ? await suggestedIdeas(userId, channel, body.suggest.count) : csvIdeas(body.csv!));
  if (!raw.length && source === "suggested") throw refusal(502, "The model suggested only ideas this channel already has. Try again.", { field: "suggest" });
  if (!raw.length) throw refusal(400, "No ideas given: one a line, a title (and | a topic).", { field: source === "pasted" ? "text" : source === "csv" ? "csv" : "ideas" });
  if (raw.length > CHANNEL_LIMITS.ideasPerImport) throw refusal(400, `At most ${CHANNEL_LIMITS.ideasPerImport} ideas at once; got ${raw.length}.`, { field: source === "csv" ? "csv" : "text" });
  const ideas = raw.map((r, i) => {
    const title = r.title.trim();
    if (!title || title.length > 200) throw refusal(400, `Idea ${i + 1}: the title must be 1 to 200 characters.`, { field: `ideas.${i}.title` });
    return { title, topic: (r.topic ?? "").trim().slice(0, 2000) };
  });
  const existing = await prisma.channelIdea.count({ where: { channelId } });
  if (existing + ideas.length > CHANNEL_LIMITS.ideasPerChannel) throw refusal(409, `A channel holds at most ${CHANNEL_LIMITS.ideasPerChannel} ideas.`, { field: "ideas" });
  const last = await prisma.channelIdea.aggregate({ where: { channelId }, _max: { position: true } });
  const start = (last._max.position ?? 0) + 1;
  await prisma.channelIdea.createMany({ data: ideas.map((idea, i) => ({ channelId, userId, title: idea.title, topic: idea.topic, source, position: start + i })) });
  await wakeChannel(userId, channel.id);
  return (await listIdeas(userId, channelId)).filter((i) => i.position >= start);
}

function stateOf(idea: ChannelIdea & { run: VideoRun | null }, tz: string, nowMs: number, postsSomewhere: boolean, places: string[] = []): Pick<IdeaView, "stateLabel" | "late" | "lateMinutes"> {
  const slotMs = idea.slotAt?.getTime() ?? null;
  const passed = slotMs !== null && slotMs <= nowMs;
  const late = passed && idea.status !== "published";
  const lateBy = (ms: number) => (ms < 90 * 60_000 ? `${Math.round(ms / 60_000)} min` : ms < 48 * 3600_000 ? `${Math.round(ms / 3600_000)} h` : `${Math.round(ms / 86400_000)} days`);
  switch (idea.status as IdeaState) {
    case "queued":
      return { stateLabel: slotMs === null ? "In the queue: waiting for a free slot" : passed ? "Late: its video has not started yet" : "Queued: made ahead of its slot", late, lateMinutes: null };
    case "making": {
      const run = idea.run;
      const stage = run ? `${MAKE_VIDEO_STAGE_LABELS[(run.stage as MakeVideoPosition) ?? "queued"] ?? run.stage} (${run.percent}%)` : "starting";
      return { stateLabel: `${passed ? "Late: still being made" : "Being made"}: ${stage}`, late, lateMinutes: null };
    }
    case "ready":
      return { stateLabel: passed ? "Late: waiting for your approval" : "Made: waiting for your approval", late, lateMinutes: null };
    case "approved":
      if (!postsSomewhere) return { stateLabel: "Approved: waiting for a platform account to post to", late, lateMinutes: null };
      return { stateLabel: idea.error ? `Approved, but ${idea.error.charAt(0).toLowerCase()}${idea.error.slice(1)}` : passed ? "Approved: posting now" : "Approved: posts at its slot", late, lateMinutes: null };
    case "publishing":
      return { stateLabel: `Publishing to ${places.length ? places.join(", ") : "YouTube"}`, late, lateMinutes: null };
    case "published": {
      const lateMs = idea.publishedAt && slotMs !== null ? idea.publishedAt.getTime() - slotMs : 0;
      const wasLate = lateMs > CHANNEL_LATE_AFTER_MS;
      return { stateLabel: wasLate ? `Published ${lateBy(lateMs)} late` : "Published", late: wasLate, lateMinutes: wasLate ? Math.round(lateMs / 60_000) : null };
    }
    case "failed":
      return { stateLabel: `Failed: ${idea.error ?? "no reason given"}`, late, lateMinutes: null };
  }
  return { stateLabel: idea.status, late, lateMinutes: null };
}

const POST_LABELS: Record<string, string> = {
  scheduled: "Posting",
  posting: "Posting",
  processing: "Processing at the platform",
  published: "Published",
  sent_to_inbox: "In your TikTok inbox: finish the post in the TikTok app",
  failed: "Failed",
  cancelled: "Cancelled",
};

type ChannelAccounts = { platform: string; connectionRef: string }[];

/**
 * Where each idea went (decision 271): YouTube from its run's upload, TikTok and Instagram from the platform posts of
 * its video on the channel's accounts (the newest per account), and the accounts it could not start on, with why.
 */
async function ideaPosts(userId: string, accounts: ChannelAccounts, ideas: (ChannelIdea & { run: VideoRun | null })[]): Promise<Map<string, IdeaPostView[]>> {
  const out = new Map<string, IdeaPostView[]>();
  const reached = ideas.filter((i) => i.run?.projectId && (i.publishedAt || i.youtubeUrl) && ["publishing", "published", "failed"].includes(i.status));
  if (!reached.length) return out;
  const refs = accounts.filter((a) => a.platform !== "youtube").map((a) => a.connectionRef);
  const rows: (PlatformPost & { connection: PlatformConnection })[] = refs.length
    ? await prisma.platformPost.findMany({ where: { userId, projectId: { in: reached.map((i) => i.run!.projectId!) }, connectionId: { in: refs } }, include: { connection: true }, orderBy: { createdAt: "desc" } })
    : [];
  const hasYoutube = accounts.some((a) => a.platform === "youtube");
  for (const idea of reached) {
    const run = idea.run!;
    const problems = (idea.postProblems ?? []) as ChannelPostProblem[];
    const list: IdeaPostView[] = [];
    const youtubeProblem = problems.find((p) => p.platform === "youtube");
    if (idea.youtubeUrl) list.push({ platform: "youtube", account: "YouTube", state: "published", label: "Published", link: idea.youtubeUrl, reason: null });
    else if (youtubeProblem) list.push({ platform: "youtube", account: "YouTube", state: "not_posted", label: `Not posted: ${youtubeProblem.reason}`, link: null, reason: youtubeProblem.reason });
    else if (hasYoutube && (run.youtubeUrl || idea.status !== "failed" || run.stage === "upload")) {
      const state: IdeaPostState = run.youtubeUrl ? "published" : run.status === "failed" || run.status === "cancelled" ? "failed" : "posting";
      const reason = state === "failed" ? (run.error ?? `The upload was ${run.status}.`) : null;
      list.push({ platform: "youtube", account: "YouTube", state, label: state === "published" ? "Published" : state === "failed" ? `Failed: ${reason}` : `Uploading (${run.percent}%)`, link: run.youtubeUrl, reason });
    }
    for (const account of accounts.filter((a) => a.platform !== "youtube")) {
      const platform = account.platform as Platform;
      const post = rows.find((r) => r.projectId === run.projectId && r.connectionId === account.connectionRef);
      const problem = problems.find((p) => p.connectionRef === account.connectionRef);
      if (post) {
        const name = `${PLATFORM_NAMES[platform]} · ${post.connection.accountName ?? "account"}`;
        const state = (post.status === "scheduled" ? "posting" : post.status) as IdeaPostState;
        const total = Number(post.totalBytes ?? 0);
        let label = POST_LABELS[post.status] ?? post.status;
        if (post.status === "posting" && total > 0) label = `Posting (${Math.round((Number(post.bytesUploaded) / total) * 100)}%)`;
        if (post.status === "failed" || post.status === "cancelled") label = `${label}: ${post.error ?? "no reason given"}`;
        // TikTok names a post's public id only once it is public and moderated (never for "Only me")
        if (post.status === "published" && !post.permalink && platform === "tiktok") label = "Published: no public link yet (private or in review, see it in the TikTok app)";
        list.push({ platform, account: name, state, label, link: post.permalink, reason: post.status === "failed" || post.status === "cancelled" ? post.error : null });
      } else if (problem) {
        list.push({ platform, account: PLATFORM_NAMES[platform], state: "not_posted", label: `Not posted: ${problem.reason}`, link: null, reason: problem.reason });
      }
    }
    out.set(idea.id, list);
  }
  return out;
}

/** The places a channel posts to, in words ("YouTube, TikTok, Instagram Reels"). */
const placesOf = (accounts: ChannelAccounts) => [...new Set(accounts.map((a) => PLATFORM_NAMES[a.platform as Platform | "youtube"] ?? a.platform))];

/** "Published" names the places a published idea did not reach ("Published, not on TikTok"); their reasons are in its posts. */
function withPlacesMissed(state: Pick<IdeaView, "stateLabel" | "late" | "lateMinutes">, status: string, posts: IdeaPostView[]) {
  if (status !== "published") return state;
  const missed = [...new Set(posts.filter((p) => ["failed", "cancelled", "not_posted"].includes(p.state)).map((p) => (p.platform === "youtube" ? "YouTube" : PLATFORM_NAMES[p.platform])))];
  return missed.length ? { ...state, stateLabel: `${state.stateLabel}, not on ${missed.join(", ")}` } : state;
}

function toIdeaView(idea: ChannelIdea & { run: VideoRun | null }, tz: string, nowMs: number, accounts: ChannelAccounts, posts: IdeaPostView[] = []): IdeaView {
  const postsSomewhere = accounts.length > 0;
  return {
    id: idea.id,
    title: idea.title,
    topic: idea.topic,
    source: idea.source,
    position: idea.position,
    status: idea.status as IdeaState,
    slotAt: idea.slotAt?.toISOString() ?? null,
    slotLabel: idea.slotAt ? formatSlot(idea.slotAt, tz) : null,
    ...withPlacesMissed(stateOf(idea, tz, nowMs, postsSomewhere, placesOf(accounts)), idea.status, posts),
    videoId: idea.runId,
    videoPage: idea.run?.projectId ? `/projects/${idea.run.projectId}` : null,
    youtubeUrl: idea.youtubeUrl,
    error: idea.error,
    posts,
  };
}

export async function listIdeas(userId: string, channelId: string, nowMs = Date.now()): Promise<IdeaView[]> {
  const channel = await requireOwnChannel(userId, channelId);
  const ideas = await prisma.channelIdea.findMany({ where: { channelId, userId }, include: { run: true }, orderBy: [{ position: "asc" }] });
  const posts = await ideaPosts(userId, channel.accounts, ideas);
  return ideas.map((i) => toIdeaView(i, channel.timeZone, nowMs, channel.accounts, posts.get(i.id)));
}

/** approve (a made video may be published at its slot), move (to another slot; an idea there swaps places), retry a failed one. */
export async function changeIdea(userId: string, channelId: string, ideaId: string, patch: z.output<typeof IdeaPatchSchema>): Promise<IdeaView> {
  const channel = await requireOwnChannel(userId, channelId);
  const idea = await prisma.channelIdea.findFirst({ where: { id: ideaId, channelId, userId } });
  if (!idea) throw refusal(404, "Idea not found.", { field: "ideaId" });
  const settled = ["publishing", "published"];
  switch (patch.action) {
    case "approve": {
      if (idea.status !== "ready") throw refusal(409, idea.status === "approved" ? "This video is approved already." : "Only a made video can be approved: this one is not ready yet.", { field: "action" });
      await prisma.channelIdea.updateMany({ where: { id: idea.id, status: "ready" }, data: { status: "approved", approvedAt: new Date() } });
      break;
    }
    case "move": {
      if (settled.includes(idea.status)) throw refusal(409, "This video is published (or publishing): it cannot move.", { field: "action" });
      const target = new Date(patch.slotAt!);
      const schedule = ScheduleSchema.parse(channel.schedule);
      const isSlot = slotsBetween(schedule, channel.timeZone, target.getTime(), target.getTime() + 1).length === 1;
      if (!isSlot) throw refusal(400, "slotAt is not one of this channel's slots.", { field: "slotAt" });
      if (target.getTime() <= Date.now()) throw refusal(400, "Move a video to a slot ahead, not one that has passed.", { field: "slotAt" });
      const there = await prisma.channelIdea.findFirst({ where: { channelId, slotAt: target } });
      if (there && settled.includes(there.status)) throw refusal(409, "That slot's video is published already.", { field: "slotAt" });
      await prisma.$transaction(async (tx) => {
        // the displaced idea takes the mover's old slot; a mover without one leaves it slotless, and the channel's
        // step gives it the next free slot whatever its state (queued, making, ready or approved: decision 251)
        if (there) await tx.channelIdea.update({ where: { id: there.id }, data: { slotAt: null } });
        await tx.channelIdea.update({ where: { id: idea.id }, data: { slotAt: target } });
        if (there && there.id !== idea.id) await tx.channelIdea.update({ where: { id: there.id }, data: { slotAt: idea.slotAt } });
      });
      break;
    }
    case "retry": {
      if (idea.status !== "failed") throw refusal(409, "Only a failed idea can be retried.", { field: "action" });
      // a video made already is published again from where it stopped (its make-video run skips what is done)
      const run = idea.runId ? await prisma.videoRun.findUnique({ where: { id: idea.runId } }) : null;
      const madeAlready = run?.videoUrl && run.projectId;
      await prisma.channelIdea.update({ where: { id: idea.id }, data: madeAlready ? { status: "approved", error: null } : { status: "queued", runId: null, error: null } });
      break;
    }
  }
  await wakeChannel(userId, channelId);
  const fresh = await prisma.channelIdea.findUniqueOrThrow({ where: { id: idea.id }, include: { run: true } });
  return toIdeaView(fresh, channel.timeZone, Date.now(), channel.accounts, (await ideaPosts(userId, channel.accounts, [fresh])).get(fresh.id));
}

export async function deleteIdea(userId: string, channelId: string, ideaId: string): Promise<{ id: string; deleted: true }> {
  await requireOwnChannel(userId, channelId);
  const idea = await prisma.channelIdea.findFirst({ where: { id: ideaId, channelId, userId } });
  if (!idea) throw refusal(404, "Idea not found.", { field: "ideaId" });
  if (idea.status === "publishing") throw refusal(409, "This video is being published: wait for it.", { field: "ideaId" });
  await prisma.channelIdea.delete({ where: { id: idea.id } });
  await wakeChannel(userId, channelId);
  return { id: idea.id, deleted: true };
}

// ── Calendar ───────────────────────────────────────────────────────────────────────────────────────
export type CalendarSlot = { at: string; label: string; past: boolean; idea: IdeaView | null; stateLabel: string };
export type CalendarWeek = { weekOf: string; label: string; slots: CalendarSlot[] };
export type ChannelCalendar = { channel: ChannelView; weeks: CalendarWeek[]; unscheduled: IdeaView[] };

/** The channel's weeks from this one (or `weeksBack` before), each slot with its idea and state in words. */
export async function channelCalendar(userId: string, channelId: string, opts: { weeks?: number; weeksBack?: number; nowMs?: number } = {}): Promise<ChannelCalendar> {
  const channel = await requireOwnChannel(userId, channelId);
  await keepAwake(userId, channel);
  const nowMs = opts.nowMs ?? Date.now();
  const weeks = Math.min(8, Math.max(1, opts.weeks ?? 4));
  const tz = channel.timeZone;
  const schedule = ScheduleSchema.parse(channel.schedule);
  const ideas = await listIdeas(userId, channelId, nowMs);
  const bySlot = new Map(ideas.filter((i) => i.slotAt).map((i) => [new Date(i.slotAt!).getTime(), i]));
  const out: CalendarWeek[] = [];
  let start = weekStartOf(nowMs, tz).getTime() - Math.min(4, Math.max(0, opts.weeksBack ?? 0)) * 7 * 86400_000;
  for (let w = 0; w < weeks + (opts.weeksBack ?? 0); w++) {
    const weekStart = weekStartOf(start + 12 * 3600_000, tz).getTime();
    const next = weekStartOf(weekStart + 8 * 86400_000, tz).getTime();
    const slots = slotsBetween(schedule, tz, weekStart, next).map((at) => {
      const idea = bySlot.get(at.getTime()) ?? null;
      const past = at.getTime() <= nowMs;
      return { at: at.toISOString(), label: formatSlot(at, tz), past, idea, stateLabel: idea ? idea.stateLabel : past ? "Nothing was queued for this slot" : "Empty: add ideas to fill it" };
    });
    out.push({ weekOf: new Date(weekStart).toISOString(), label: `Week of ${new Intl.DateTimeFormat("en-GB", { timeZone: tz, day: "numeric", month: "short", year: "numeric" }).format(new Date(weekStart))}`, slots });
    start = next;
  }
  return { channel: await toChannelView(channel), weeks: out, unscheduled: ideas.filter((i) => !i.slotAt && i.status !== "published") };
}
