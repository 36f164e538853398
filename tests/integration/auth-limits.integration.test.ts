// Roles and limits with billing configured, the projects API, and the header's gates as a project advances.
import { afterAll, describe, expect, it, vi } from "vitest";
import { callRoute as call } from "../support/routes";

vi.hoisted(() => {
  process.env.STRIPE_SECRET_KEY = "sk_test_integration";
  process.env.OWNER_EMAIL = "owner@example.com";
});

const { prisma } = await import("~/core/db.server");
import type { Refusal } from "~/core/refusal.server";
const { assertCanUpload, assertCanUseMusic, getAccessLevel, maxRenderHeight } = await import("~/core/permissions.server");
const { createProject, getCurrentProject } = await import("~/core/projects.server");
const projectsRoute = await import("~/routes/projects/api.projects");
const { loader: projectDetails } = await import("~/routes/projects/api.projects.$id");
const { action: openProject } = await import("~/routes/projects/api.projects.$id.open");
const { loader: projectStoryboard } = await import("~/routes/projects/api.projects.$id.storyboard");
const { loader: rootLoader } = await import("~/root");
const { visibleNavLinks } = await import("~/components/nav/nav-links");
const { createTestUser, sessionCookieFor } = await import("../support/auth");

afterAll(async () => {
  await prisma.$disconnect();
});

const url = "http://localhost:3000";


const postJson = (path: string, body: unknown, cookie: string) =>
  new Request(`${url}${path}`, { method: "POST", headers: { "Content-Type": "application/json", Cookie: cookie, Origin: url }, body: JSON.stringify(body) });
const get = (path: string, cookie: string) => new Request(`${url}${path}`, { headers: { Cookie: cookie } });

const details = { title: "Octopus Minds", topic: "How octopuses think with their arms", resolution: "16:9", duration: 300 };

async function subscribe(userId: string) {
  await prisma.subscription.create({
    data: { userId, stripeCustomerId: `cus_${userId}`, status: "active", currentPeriodEnd: new Date(Date.now() + 86_400_000) },
  });
}

describe("free accounts (billing configured, no subscription)", () => {
  it("may create one project; the second is refused with 402 and what to do", async () => {
    const user = await createTestUser();
    const cookie = await sessionCookieFor(user.id);
    const first = await call(projectsRoute.action, postJson("/api/projects", details, cookie));
    expect(first.status).toBe(201);
    const second = await call(projectsRoute.action, postJson("/api/projects", { ...details, title: "Second" }, cookie));
    expect(second.status).toBe(402);
    expect((await second.json()).message).toMatch(/Free accounts can have 1 project\. Upgrade to Premium on the Subscription page/);
    await expect(prisma.project.count({ where: { userId: user.id } })).resolves.toBe(1);
  });

  it("cannot pass the limit with simultaneous requests", async () => {
    const user = await createTestUser();
    const input = { title: "T", topic: "t", resolution: "landscape" as const, durationSeconds: 300 };
    const results = await Promise.allSettled([createProject(user.id, input), createProject(user.id, input), createProject(user.id, input)]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    await expect(prisma.project.count({ where: { userId: user.id } })).resolves.toBe(1);
  });

  it("is refused background music and upload with 402, and renders at most 720p", async () => {
    const user = await createTestUser();
    await expect(getAccessLevel(user)).resolves.toBe("free");
    const music = await assertCanUseMusic(user.id).then(() => null, (e: Refusal) => e);
    expect(music?.status).toBe(402);
    expect(music?.message).toBe("Background music is a Premium feature. Upgrade to Premium on the Subscription page (/subscription) to unlock it.");
    const upload = await assertCanUpload(user.id).then(() => null, (e: Refusal) => e);
    expect(upload?.status).toBe(402);
    expect(upload?.message).toMatch(/Uploading to YouTube is a Premium feature/);
    await expect(maxRenderHeight(user.id)).resolves.toBe(720);
  });
});

describe("premium and admin", () => {
  it("an active subscription unlocks unlimited projects, music, upload and 4K", async () => {
    const user = await createTestUser();
    await subscribe(user.id);
    await expect(getAccessLevel(user)).resolves.toBe("premium");
    const input = { title: "T", topic: "t", resolution: "shorts" as const, durationSeconds: 30 };
    await createProject(user.id, input);
    await createProject(user.id, input);
    await expect(prisma.project.count({ where: { userId: user.id } })).resolves.toBe(2);
    await expect(assertCanUseMusic(user.id)).resolves.toBeUndefined();
    await expect(assertCanUpload(user.id)).resolves.toBeUndefined();
    await expect(maxRenderHeight(user.id)).resolves.toBe(2160);
  });

  it("a subscription whose period ended is free again", async () => {
    const user = await createTestUser();
    await prisma.subscription.create({ data: { userId: user.id, stripeCustomerId: `cus_${user.id}`, status: "active", currentPeriodEnd: new Date(Date.now() - 1000) } });
    await expect(getAccessLevel(user)).resolves.toBe("free");
  });

  it("the owner account is admin without a subscription", async () => {
    const owner = await createTestUser("owner@example.com");
    await expect(getAccessLevel(owner)).resolves.toBe("admin");
    await expect(assertCanUseMusic(owner.id)).resolves.toBeUndefined();
  });
});

describe("projects API", () => {
  it("answers a bad body with 400 naming the field", async () => {
    const user = await createTestUser();
    const cookie = await sessionCookieFor(user.id);
    const missingTitle = await call(projectsRoute.action, postJson("/api/projects", { ...details, title: "" }, cookie));
    expect(missingTitle.status).toBe(400);
    expect(await missingTitle.json()).toMatchObject({ field: "title" });
    const badDuration = await call(projectsRoute.action, postJson("/api/projects", { ...details, duration: 10 }, cookie));
    expect(badDuration.status).toBe(400);
    expect(await badDuration.json()).toEqual({ field: "duration", message: "duration: Duration must be between 300 and 3600 for this format." });
  });

  it("lists, reads and opens only the user's own projects", async () => {
    const owner = await createTestUser();
    await subscribe(owner.id);
    const cookie = await sessionCookieFor(owner.id);
    const a = await createProject(owner.id, { title: "A", topic: "a", resolution: "landscape", durationSeconds: 300 });
    const b = await createProject(owner.id, { title: "B", topic: "b", resolution: "tiktok", durationSeconds: 60 });
    expect((await getCurrentProject(owner.id))?.id).toBe(b.id);

    const list = await (await call(projectsRoute.loader, get("/api/projects", cookie))).json();
    expect(list.map((p: { title: string; stage: string; isCurrent: boolean }) => [p.title, p.stage, p.isCurrent])).toEqual([
      ["B", "script", true],
      ["A", "script", false],
    ]);

    const opened = await call(openProject, postJson(`/api/projects/${a.id}/open`, {}, cookie), { id: a.id });
    expect(opened.status).toBe(200);
    expect((await getCurrentProject(owner.id))?.id).toBe(a.id);
    const one = await (await call(projectDetails, get(`/api/projects/${a.id}`, cookie), { id: a.id })).json();
    expect(one).toMatchObject({ id: a.id, title: "A", resolution: "16:9", duration: 300, isCurrent: true, script: null });

    const stranger = await createTestUser();
    const strangerCookie = await sessionCookieFor(stranger.id);
    expect((await call(projectDetails, get(`/api/projects/${a.id}`, strangerCookie), { id: a.id })).status).toBe(404);
    expect((await call(openProject, postJson(`/api/projects/${a.id}/open`, {}, strangerCookie), { id: a.id })).status).toBe(404);
    expect((await call(projectStoryboard, get(`/api/projects/${a.id}/storyboard`, strangerCookie), { id: a.id })).status).toBe(404);
    expect((await getCurrentProject(stranger.id))).toBeNull();
  });
});

describe("navigation header gates", () => {
  it("adds the links in the spec's order as the current project advances", async () => {
    const user = await createTestUser("gates@example.com");
    const cookie = await sessionCookieFor(user.id);
    // The gates themselves, in the spec's order (the header hides links to screens not built yet).
    const GATE_LABELS = [
      ["script", "View Script"],
      ["storyboard", "View Storyboard"],
      ["music", "Add Music"],
      ["render", "Render Video"],
      ["upload", "Upload"],
    ] as const;
    const links = async () => {
      const data = await (await call(rootLoader, get("/dashboard", cookie))).json();
      const shown = visibleNavLinks(data.session.gates).map((l) => l.label);
      expect(shown.every((label) => label === "Create New Video" || GATE_LABELS.some(([gate, l]) => l === label && data.session.gates[gate]))).toBe(true);
      return ["Create New Video", ...GATE_LABELS.filter(([gate]) => data.session.gates[gate]).map(([, label]) => label)];
    };
    expect(await links()).toEqual(["Create New Video"]);

    const project = await createProject(user.id, { title: "Gates", topic: "g", resolution: "shorts", durationSeconds: 30 });
    expect(await links()).toEqual(["Create New Video"]);

    await prisma.script.create({ data: { projectId: project.id, status: "processing", targetWords: 75 } });
    expect(await links()).toEqual(["Create New Video", "View Script", "View Storyboard"]);

    const storyboard = await prisma.storyboard.create({ data: { projectId: project.id, title: "Gates", status: "completed" } });
    await prisma.storyboardCell.createMany({
      data: [0, 1].map((cellIndex) => ({ storyboardId: storyboard.id, cellIndex, imagePrompt: "p", voiceoverText: "v", estimatedDuration: 5, imageUrl: "/api/media/i" })),
    });
    expect(await links()).toEqual(["Create New Video", "View Script", "View Storyboard"]);
    await prisma.storyboardCell.updateMany({ where: { storyboardId: storyboard.id }, data: { audioUrl: "/api/media/a" } });
    // every scene has its media: Music opens, and Render too (music is optional)
    expect(await links()).toEqual(["Create New Video", "View Script", "View Storyboard", "Add Music", "Render Video"]);

    await prisma.musicTrack.create({ data: { projectId: project.id, prompt: "calm", status: "completed", audioUrl: "/api/media/m" } });
    expect(await links()).toEqual(["Create New Video", "View Script", "View Storyboard", "Add Music", "Render Video"]);

    await prisma.renderedVideo.create({ data: { projectId: project.id, status: "completed", videoUrl: "/api/media/v", createdAt: new Date(Date.now() - 60_000) } });
    await prisma.renderedVideo.create({ data: { projectId: project.id, status: "processing" } });
    expect(await links()).not.toContain("Upload"); // the latest video has no URL yet
    await prisma.renderedVideo.updateMany({ where: { projectId: project.id, videoUrl: null }, data: { videoUrl: "/api/media/v2", status: "completed" } });
    expect(await links()).toEqual(["Create New Video", "View Script", "View Storyboard", "Add Music", "Render Video", "Upload"]);
  });

  it("sends a signed-out visit to a signed-in page to the landing page, but not /login-failed", async () => {
    const page = await call(rootLoader, new Request(`${url}/script`));
    expect(page.status).toBe(302);
    expect(page.headers.get("Location")).toBe("/?from=%2Fscript");
    const failed = await call(rootLoader, new Request(`${url}/login-failed?error=x`));
    expect(failed.status).toBe(200);
    expect((await failed.json()).session).toBeNull();
  });
});
