// Shorts suggested and versions translated by the creator's text model (issue 51, decision 246), against the local
// Gemini fake: with a Gemini key the suggestions are the model's (a run outside the video dropped, each within the
// limit as the renderers time it), the version's words are the model's translation, into a language Apertium has no
// pair for too; the model failing falls back to the rule-based pick with a note. Without a key: the rule-based pick
// and Apertium. No voiceovers, nothing rendered.
import { afterAll, describe, expect, it, vi } from "vitest";
import { prisma } from "~/core/db.server";
import { updateConfig } from "~/core/settings.server";
import { loader as shortsLoader } from "~/routes/projects/api.projects.$id.shorts";
import { action as versionsAction, loader as versionsLoader } from "~/routes/projects/api.projects.$id.versions";
import { seedLongSource } from "../fixtures/long-source";
import { createTestUser, sessionCookieFor } from "../support/auth";
import { callRoute } from "../support/routes";

const { gemini } = await vi.hoisted(async () => {
  const { FakeGemini } = await import("../fakes/gemini");
  const gemini = new FakeGemini("gemini-key-for-outputs-0123456789");
  process.env.GEMINI_BASE_URL = await gemini.start();
  return { gemini };
});

afterAll(async () => {
  await gemini.stop();
  await prisma.$disconnect();
});

const base = "http://localhost:3000";

async function creator({ gemini: withKey }: { gemini: boolean }) {
  const user = await createTestUser();
  if (withKey) await updateConfig(user.id, { geminiApiKey: gemini.apiKey });
  const source = await seedLongSource(user.id, { scenes: 8 });
  return { userId: user.id, cookie: await sessionCookieFor(user.id), sourceId: source.id };
}

const get = async (loader: typeof shortsLoader, url: string, cookie: string, id: string) => (await callRoute(loader, new Request(`${base}${url}`, { headers: { Cookie: cookie } }), { id })).json();

describe("Shorts and versions with the creator's text model", () => {
  it("suggests the model's runs, checked against the limit; falls back to the rule-based pick when the model fails", { timeout: 120_000 }, async () => {
    const { cookie, sourceId } = await creator({ gemini: true });
    gemini.reset();
    const options = await get(shortsLoader, `/api/projects/${sourceId}/shorts?maxSeconds=60`, cookie, sourceId);
    expect(options.suggestedBy).toBe("Google Gemini");
    expect(options.notice).toBeNull();
    // the fake picks from the end: scenes 5-7, 2-4 and 0-1 (three 14.7 s scenes fit 60 s with the end card); its
    // run outside the video is dropped
    expect(options.suggestions.map((s: { fromScene: number; toScene: number }) => [s.fromScene, s.toScene])).toEqual([
      [0, 1],
      [2, 4],
      [5, 7],
    ]);
    for (const s of options.suggestions) expect(s.seconds).toBeLessThanOrEqual(60);
    expect(options.suggestions[2]).toMatchObject({ hook: "The model's hook for scene 6", reason: "The fake model liked this moment" });
    expect(gemini.prompts.at(-1)).toContain("Scene 7 (14.7 s): ");
    // asked again: the same answer, no second request
    expect((await get(shortsLoader, `/api/projects/${sourceId}/shorts?maxSeconds=60`, cookie, sourceId)).suggestions).toEqual(options.suggestions);
    expect(gemini.prompts).toHaveLength(1);

    // Gemini failing: the rule-based pick, with the reason
    gemini.trouble({ kind: "server-error" }, 1);
    const fallback = await get(shortsLoader, `/api/projects/${sourceId}/shorts?maxSeconds=45`, cookie, sourceId);
    expect(fallback.suggestedBy).toBe("Rule-based pick");
    expect(fallback.notice).toMatch(/^Google Gemini could not suggest Shorts \(Gemini failed with HTTP 500/);
    expect(fallback.suggestions[0]).toMatchObject({ fromScene: 0, reason: "Opens with a question" });
  });

  it("translates a version with the model, into a language Apertium lacks too", { timeout: 120_000 }, async () => {
    const { cookie, sourceId } = await creator({ gemini: true });
    const options = await get(versionsLoader, `/api/projects/${sourceId}/versions`, cookie, sourceId);
    expect(options.translator).toBe("Google Gemini (machine translation)");
    expect(options.targets.map((t: { code: string }) => t.code)).toEqual(expect.arrayContaining(["es", "de", "ja"]));
    const post = (body: unknown) =>
      callRoute(versionsAction, new Request(`${base}/api/projects/${sourceId}/versions`, { method: "POST", headers: { Cookie: cookie, "Content-Type": "application/json" }, body: JSON.stringify(body) }), { id: sourceId });
    // the model failing, for a language Apertium has no pair for: refused in words, nothing made
    gemini.reset().trouble({ kind: "server-error" }, 1);
    const failed = await post({ language: "de", voiceovers: false });
    expect(failed.status).toBe(502);
    expect((await failed.json()).message).toMatch(/^Google Gemini could not translate the video into German \(Deutsch\): Gemini failed with HTTP 500/);
    expect(await prisma.project.count({ where: { sourceProjectId: sourceId } })).toBe(0);
    const made = await post({ language: "de", voiceovers: false });
    expect(made.status).toBe(201);
    const version = await made.json();
    expect(version).toMatchObject({ language: "de", translatedBy: "Google Gemini (machine translation)", voiceovers: "after proofreading" });
    const [source, cells] = await Promise.all([sourceId, version.projectId].map((projectId) => prisma.storyboardCell.findMany({ where: { storyboard: { projectId } }, orderBy: { cellIndex: "asc" } })));
    expect(cells!.map((c) => c.voiceoverText)).toEqual(source!.map((c) => `[German] ${c.voiceoverText}`));
    const project = await prisma.project.findUniqueOrThrow({ where: { id: version.projectId }, include: { script: true } });
    expect(project.title).toBe("[German] The secret lives of honeybees");
    expect(project.script).toMatchObject({ writtenBy: "Google Gemini (machine translation)" });
    expect(project.derivedFrom).toMatchObject({ to: "de", translatedBy: "Google Gemini (machine translation)", machineTranslation: true });
  });

  it("offline: the rule-based pick and Apertium", { timeout: 120_000 }, async () => {
    const { cookie, sourceId } = await creator({ gemini: false });
    const before = gemini.requests.length;
    const options = await get(shortsLoader, `/api/projects/${sourceId}/shorts?maxSeconds=60`, cookie, sourceId);
    expect(options).toMatchObject({ suggestedBy: "Rule-based pick", notice: null });
    expect(options.suggestions[0]).toMatchObject({ fromScene: 0, reason: "Opens with a question" });
    const versions = await get(versionsLoader, `/api/projects/${sourceId}/versions`, cookie, sourceId);
    expect(versions.translator).toBe("Apertium (machine translation)");
    expect(versions.targets.map((t: { code: string }) => t.code)).not.toContain("de");
    expect(gemini.requests.length).toBe(before);
  });
});
