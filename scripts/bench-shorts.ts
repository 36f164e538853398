// npm run bench:shorts [--quality=1080|720]: three Shorts from a five-minute 16:9 video, timed against their renders
// alone (issue 51's done-when: at most 1.5x). The app is started as the browser tests start it (scripts/lib/bench-app.ts:
// the built web server and a worker against a fresh database, offline providers, no keys); the source video is the
// integration test's (tests/fixtures/long-source.ts: 20 scenes of 15 s, offline pictures drawn as the storyboard
// draws them, tone voiceovers with word timings), stored before the clock starts. Then, timed:
//   make    the suggested runs (the rule-based pick) and the three Shorts made from them (each picture reframed
//           around its subject, the hook, the end card, the voiceovers and music copied), as the page's POST does;
//   render  each Short rendered by the worker's render workflow, one after another, at 1080x1920 (the fast renderer,
//           captions on, the delivery encoding and the loudness step), as the Render page starts it.
// Prints each step, the total, and total / renders. A benchmark, not a test: the figures depend on the machine's load,
// so the load average before and after is printed too.
import os from "node:os";
import { randomUUID } from "node:crypto";
import { startBenchApp, stopBenchApp } from "./lib/bench-app";

const option = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const HEIGHT = Number(option("quality") ?? 1080);
const SIZE = HEIGHT === 720 ? { width: 720, height: 1280 } : { width: 1080, height: 1920 };
const seconds = (ms: number) => (ms / 1000).toFixed(1);
const load = () => os.loadavg().map((l) => l.toFixed(1)).join(" ");

async function main() {
  await startBenchApp();
  // after the app's environment is set: these read DATABASE_URL, DATA_DIR and the task queue when loaded
  const { prisma } = await import("~/core/db.server");
  const { getShortOptions, createShort } = await import("~/server/shorts.server");
  const { getTemporalClient } = await import("~/server/temporal.server");
  const { DEFAULT_CAPTION_STYLE } = await import("~/lib/caption-style");
  const { renderWorkflowId } = await import("../workflows/shared/render");
  const { seedLongSource } = await import("../tests/fixtures/long-source");

  const user = await prisma.user.create({ data: { email: `bench-shorts-${randomUUID()}@example.com`, name: "Bench Shorts" } });
  console.log("storing the five-minute source (20 offline pictures, not timed)...");
  const source = await seedLongSource(user.id);
  const client = await getTemporalClient();
  console.log(`load average before: ${load()}`);

  const makeStart = performance.now();
  const options = await getShortOptions(user.id, source.id, 60);
  const shorts = [];
  for (const s of options.suggestions) shorts.push(await createShort(user.id, source.id, { fromScene: s.fromScene, toScene: s.toScene, maxSeconds: 60 }));
  const makeMs = performance.now() - makeStart;
  console.log(`make: ${shorts.length} Shorts (${shorts.map((s) => `${s.seconds} s`).join(", ")}) in ${seconds(makeMs)} s`);

  let renderMs = 0;
  for (const [i, short] of shorts.entries()) {
    const render = await prisma.renderedVideo.create({ data: { projectId: short.projectId, status: "processing", workflowId: renderWorkflowId(short.projectId) } });
    const start = performance.now();
    await client.workflow.execute("renderVideoWorkflow", {
      taskQueue: process.env.TEMPORAL_TASK_QUEUE!,
      workflowId: renderWorkflowId(short.projectId),
      args: [{ renderId: render.id, userId: user.id, projectId: short.projectId, ...SIZE, captions: true, captionStyle: DEFAULT_CAPTION_STYLE }],
    });
    const ms = performance.now() - start;
    renderMs += ms;
    const row = await prisma.renderedVideo.findUniqueOrThrow({ where: { id: render.id } });
    console.log(`render ${i + 1}: ${row.width}x${row.height}, ${row.durationSeconds?.toFixed(1)} s of video, ${row.renderer} renderer, in ${seconds(ms)} s`);
  }
  const total = makeMs + renderMs;
  console.log(`load average after: ${load()}`);
  console.log(`\nthree Shorts from a five-minute video at ${SIZE.width}x${SIZE.height}:`);
  console.log(`  making them   ${seconds(makeMs)} s`);
  console.log(`  renders alone ${seconds(renderMs)} s`);
  console.log(`  total         ${seconds(total)} s = ${(total / renderMs).toFixed(2)}x the renders alone (target at most 1.5x)`);
  await prisma.$disconnect();
}

main()
  .then(() => stopBenchApp())
  .then(() => process.exit(0))
  .catch(async (error: unknown) => {
    console.error(error);
    await stopBenchApp();
    process.exit(1);
  });
