// Ideas suggested by the creator's text model (issue 52, decision 250), through /api/v1 and the local Gemini fake:
// with a Gemini key, the channel's ideas come from its topic and the titles it already has (sent in the prompt, never
// repeated), marked "suggested", queued after the others; without a key (offline) nothing is invented: a 409 that
// says how to add ideas instead; another creator's channel is a 404.
import { afterAll, describe, expect, it, vi } from "vitest";
import { prisma } from "~/core/db.server";
import { updateConfig } from "~/core/settings.server";
import { ChannelInputSchema } from "~/lib/channel";
import { addIdeas, createChannel } from "~/server/channels.server";
import { action as ideasAction } from "~/routes/channels/api.v1.channels.$id.ideas";
import { createTestUser, sessionCookieFor } from "../support/auth";
import { callRoute } from "../support/routes";

const { gemini } = await vi.hoisted(async () => {
  const { FakeGemini } = await import("../fakes/gemini");
  const gemini = new FakeGemini("gemini-key-for-ideas-0123456789");
  process.env.GEMINI_BASE_URL = await gemini.start();
  return { gemini };
});
afterAll(async () => {
  await gemini.stop();
  await prisma.$disconnect();
});

async function channelOf(withKey: boolean) {
  const user = await createTestUser();
  if (withKey) await updateConfig(user.id, { geminiApiKey: gemini.apiKey });
  const channel = await createChannel(user.id, ChannelInputSchema.parse({ name: "Deep Sea", paused: true, kit: { topic: "strange facts about the deep sea" } }));
  return { user, channel, cookie: await sessionCookieFor(user.id) };
}

const suggest = (channelId: string, cookie: string, count = 3) =>
  callRoute(
    ideasAction,
    new Request(`http://localhost/api/v1/channels/${channelId}/ideas`, { method: "POST", headers: { Cookie: cookie, "Content-Type": "application/json" }, body: JSON.stringify({ suggest: { count } }) }),
    { id: channelId },
  );

describe("suggested ideas", () => {
  it("come from the model with the channel's topic and past titles, queued after the others, never repeating one", async () => {
    const { user, channel, cookie } = await channelOf(true);
    await addIdeas(user.id, channel.id, { text: "Anglerfish lights\nGiant squid eyes" });
    const before = gemini.prompts.length;
    const response = await suggest(channel.id, cookie, 3);
    expect(response.status).toBe(201);
    const { ideas } = (await response.json()) as { ideas: { title: string; topic: string; source: string; position: number }[] };
    expect(ideas).toHaveLength(3);
    expect(ideas.every((i) => i.source === "suggested" && i.title.startsWith("strange facts about the deep sea: idea"))).toBe(true);
    expect(ideas.map((i) => i.position)).toEqual([3, 4, 5]);
    const prompt = gemini.prompts[before]!;
    expect(prompt).toContain('about: "strange facts about the deep sea"');
    expect(prompt).toContain("- Anglerfish lights");
    expect(prompt).toContain("- Giant squid eyes");
    // a second suggestion lists the suggested ones too, as videos not to repeat
    await suggest(channel.id, cookie, 2);
    for (const i of ideas) expect(gemini.prompts.at(-1)).toContain(`- ${i.title}`);
    expect(await prisma.channelIdea.count({ where: { channelId: channel.id } })).toBe(7);
  });

  it("are refused without a text model (offline): the creator is told to save a key or add ideas themselves", async () => {
    const { channel, cookie } = await channelOf(false);
    const before = gemini.prompts.length;
    const response = await suggest(channel.id, cookie);
    expect(response.status).toBe(409);
    expect(JSON.stringify(await response.json())).toContain("Suggesting ideas needs a text model: save your Gemini API key in Settings.");
    expect(gemini.prompts.length).toBe(before);
    expect(await prisma.channelIdea.count({ where: { channelId: channel.id } })).toBe(0);
  });

  it("for another creator's channel is a 404, and a count past 20 is a 400 naming the field", async () => {
    const { channel } = await channelOf(true);
    const other = await channelOf(true);
    expect((await suggest(channel.id, other.cookie)).status).toBe(404);
    const tooMany = await suggest(other.channel.id, other.cookie, 21);
    expect(tooMany.status).toBe(400);
    expect(JSON.stringify(await tooMany.json())).toContain("suggest.count must be at most 20.");
  });
});
