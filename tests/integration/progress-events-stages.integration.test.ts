// The storyboard page's two event streams on the real servers (docs/decisions/132): the scene split's status and
// Generate All's progress arrive as events carrying the polling routes' JSON, and each stream ends with its run.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loader as progressEventsLoader } from "~/routes/projects/api.progress-events";
import { action as generateAllAction, loader as generateAllLoader } from "~/routes/storyboard/api.generate-all-content";
import { action as generateStoryboards } from "~/routes/storyboard/api.generate-storyboards";
import { loader as storyboardStatus } from "~/routes/storyboard/api.storyboard-status";
import { prisma } from "~/core/db.server";
import { createTestUser, sessionCookieFor } from "../support/auth";
import { callRoute } from "../support/routes";
import { startTestWorker } from "../support/temporal";

const base = "http://localhost:3000";
let testWorker: Awaited<ReturnType<typeof startTestWorker>>;
beforeAll(async () => {
  testWorker = await startTestWorker();
});
afterAll(async () => {
  await testWorker?.stop();
  await prisma.$disconnect();
});

/** Every event of a stream until the server closes it: [event name, parsed data]. */
async function readAll(response: Response): Promise<[string, unknown][]> {
  const text = await response.text(); // resolves once the server closed the stream
  return text
    .split("\n\n")
    .filter((block) => block.startsWith("event:"))
    .map((block) => {
      const lines = Object.fromEntries(block.split("\n").map((l) => [l.slice(0, l.indexOf(":")), l.slice(l.indexOf(":") + 1).trim()]));
      return [lines.event!, JSON.parse(lines.data!) as unknown];
    });
}

const get = (path: string, cookie: string) => new Request(`${base}${path}`, { headers: { Cookie: cookie } });
const post = (path: string, cookie: string, body: unknown = {}) =>
  new Request(`${base}${path}`, { method: "POST", headers: { Cookie: cookie, "Content-Type": "application/json", Origin: base }, body: JSON.stringify(body) });

describe("the storyboard's event streams", () => {
  it("follow the scene split and then Generate All to their ends", { timeout: 240_000 }, async () => {
    const user = await createTestUser();
    const project = await prisma.project.create({ data: { userId: user.id, title: "Bees", topic: "bees", resolution: "shorts", durationSeconds: 10 } });
    await prisma.user.update({ where: { id: user.id }, data: { currentProjectId: project.id } });
    const text = "Bees dance to tell each other where the flowers are. The dance points the way and says how far to fly.";
    await prisma.script.create({ data: { projectId: project.id, status: "completed", text, wordCount: 20, targetWords: 25 } });
    const cookie = await sessionCookieFor(user.id);

    expect((await callRoute(generateStoryboards, post("/api/generate-storyboards", cookie))).status).toBe(202);
    const split = await readAll(await callRoute(progressEventsLoader, get("/api/progress-events?stage=storyboard", cookie)));
    const splitStates = split.filter(([e]) => e === "progress").map(([, d]) => d as { status: string; cellCount: number });
    expect(splitStates[0]!.status).toBe("processing");
    expect(splitStates.at(-1)).toMatchObject({ status: "completed" });
    expect(splitStates.at(-1)!.cellCount).toBeGreaterThan(0);
    expect(split.at(-1)).toEqual(["end", {}]);
    // the last event is what the polling route answers now
    expect(await (await callRoute(storyboardStatus, get("/api/storyboard-status", cookie))).json()).toEqual(splitStates.at(-1));

    const started = (await (await callRoute(generateAllAction, post("/api/generate-all-content", cookie))).json()) as { started: boolean; runId: string };
    expect(started.started).toBe(true);
    const all = await readAll(await callRoute(progressEventsLoader, get("/api/progress-events?stage=generate-all", cookie)));
    type View = { progress: { running: boolean; runId: string; imagesDone: number; voiceoversDone: number; imagesTotal: number } | null };
    const views = all.filter(([e]) => e === "progress").map(([, d]) => d as View);
    expect(views.length).toBeGreaterThanOrEqual(1);
    const last = views.at(-1)!.progress!;
    expect(last).toMatchObject({ running: false, runId: started.runId });
    expect(last.imagesDone).toBe(last.imagesTotal);
    expect(last.voiceoversDone).toBeGreaterThan(0);
    expect(all.at(-1)).toEqual(["end", {}]);
    expect(await (await callRoute(generateAllLoader, get("/api/generate-all-content", cookie))).json()).toEqual(views.at(-1));
  });
});
