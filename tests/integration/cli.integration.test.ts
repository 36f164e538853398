// The CLI (bin/reelsmith.mjs, issue 32) as a user runs it: a separate node process talking HTTP to the API behind
// the real gates, with a token from the environment. `make --wait` shows its progress and saves an MP4 that
// plays (ffprobe); `status` and `list` print it; `batch` makes one video per CSV row, never more at once than
// --concurrency, and saves each.
import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiToken } from "~/server/api-tokens.server";
import { prisma } from "~/core/db.server";
import { probeVideo } from "../fixtures/video-probe";
import { startApiV1Server } from "../support/api-v1-server";
import { createTestUser } from "../support/auth";
import { startTestWorker } from "../support/temporal";

// Cloud-like waits for the offline providers (decision 255): each script chunk, picture, voiceover and the music
// answer 1.5 s later, so the stages that overlap stay side by side for longer than a poll (on a quiet machine a 10 s
// Short's music was done within one 400 ms poll, and no read saw it beside the script).
process.env.FAKE_PROVIDER_LATENCY_MS = "1500";

const run = promisify(execFile);
const CLI = fileURLToPath(new URL("../../bin/reelsmith.mjs", import.meta.url));
let stopWorker: () => Promise<void>;
let server: { url: string; close: () => void };
let dir: string;

beforeAll(async () => {
  stopWorker = (await startTestWorker()).stop;
  server = await startApiV1Server();
  dir = await mkdtemp(path.join(os.tmpdir(), "reelsmith-cli-"));
});
afterAll(async () => {
  server?.close();
  await stopWorker?.();
  await rm(dir, { recursive: true, force: true });
  await prisma.$disconnect();
});

async function cli(args: string[], token: string, extraEnv: Record<string, string> = {}) {
  // no config file of the machine's: the environment alone says where and who
  const env = { ...process.env, REELSMITH_URL: server.url, REELSMITH_TOKEN: token, REELSMITH_CONFIG: path.join(dir, "none.json"), ...extraEnv };
  try {
    const { stdout, stderr } = await run(process.execPath, [CLI, ...args], { env, cwd: dir, timeout: 9 * 60_000, maxBuffer: 16 * 1024 * 1024 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

/** How many stages a progress line ("41% script done · pictures 3/5 · music running · about 20 s left") says are running. */
const runningParts = (line: string) =>
  line
    .replace(/^(row \d+: )?\d+% /, "")
    .split(" · ")
    .filter((part) => !/ (done|waiting|failed)$/.test(part) && !/ left$/.test(part)).length;

/** The whole video's time left a progress line ends with, in seconds (null when it has none). */
function secondsLeft(line: string): number | null {
  if (/a few seconds left$/.test(line)) return 0;
  const m = /about (?:(\d+) h)? ?(?:(\d+) min)? ?(?:(\d+) s)? left$/.exec(line);
  if (!m) return null;
  return Number(m[1] ?? 0) * 3600 + Number(m[2] ?? 0) * 60 + Number(m[3] ?? 0);
}

describe("the reelsmith CLI", () => {
  it("make --wait shows the stages and saves an MP4 that plays; status and list print it; a bad option is refused in words", async () => {
    const owner = await createTestUser();
    const { token } = await createApiToken(owner.id, { name: "cli", scope: "full", expiresInDays: 7 });

    const refused = await cli(["make", "--title", "T", "--topic", "t", "--format", "9:16", "--duration", "1"], token);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/400 Bad request: duration: duration must be between 5 and 180/);

    const output = path.join(dir, "short.mp4");
    // with music, made beside the script and the scenes: the progress lines show the stages that overlap
    const made = await cli(["make", "--title", "Why the sky is blue", "--topic", "Rayleigh scattering for kids", "--format", "9:16", "--duration", "10", "--quality", "720", "--music", "--wait", "--output", output], token, { REELSMITH_POLL_MS: "500" });
    expect(made.code, made.stderr).toBe(0);
    const lines = made.stderr.split("\n").filter((l) => / · /.test(l));
    expect(made.stderr).toMatch(/script (running|\d+%)/);
    expect(made.stderr).toMatch(/render (running|\d+%)/);
    // one line names two stages running at once ("pictures 3/5 · music running"), and every line while a stage
    // waits ends with the whole video's time left, which falls from the first line to the last
    expect(lines.some((l) => runningParts(l) >= 2), made.stderr).toBe(true);
    const left = lines.map(secondsLeft).filter((s): s is number => s !== null);
    expect(left.length, made.stderr).toBeGreaterThan(1);
    expect(left.at(-1)!).toBeLessThan(left[0]!);
    expect(made.stdout).toMatch(/completed/);
    expect(made.stdout).toContain(`saved: ${output}`);
    const facts = await probeVideo(output);
    expect(facts.video.height).toBe(1280);
    expect(facts.video.durationSeconds).toBeGreaterThan(8);
    expect(facts.video.durationSeconds).toBeLessThan(16);
    expect(facts.audio).not.toBeNull();
    console.log(`CLI make --wait: MP4 ${facts.video.width}x${facts.video.height}, ${facts.video.durationSeconds.toFixed(2)} s, audio ${facts.audio!.codec}`);

    const id = made.stdout.split(/\s+/)[0]!;
    const status = await cli(["status", id, "--json"], token);
    expect(JSON.parse(status.stdout)).toMatchObject({ id, status: "completed", percent: 100 });
    const list = await cli(["list"], token);
    expect(list.stdout).toContain(id);

    const revoked = await cli(["list"], "rs_pat_" + "x".repeat(43));
    expect(revoked.code).toBe(1);
    expect(revoked.stderr).toMatch(/401 Unauthorized: This API token is not known/);
  }, 600_000);

  it("batch makes one video per CSV row, at most --concurrency at once, and saves each", async () => {
    // no cloud-like waits here: the batch's bound is counted from the server's own record, not seen by polls
    // (the providers are made per call, so the worker in this process answers at once from here on)
    delete process.env.FAKE_PROVIDER_LATENCY_MS;
    const owner = await createTestUser();
    const { token } = await createApiToken(owner.id, { name: "batch", scope: "full", expiresInDays: 7 });
    const csv = path.join(dir, "rows.csv");
    await writeFile(
      csv,
      [
        "title,topic,format,duration,quality,captions",
        "Bees,How bees make honey,9:16,5,720,true",
        "Owls,Why owls turn their heads,9:16,5,720,false",
        "Moon,Why the moon has phases,9:16,5,720,true",
      ].join("\n"),
    );
    const outDir = path.join(dir, "batch");
    const result = await cli(["batch", csv, "--concurrency", "2", "--output-dir", outDir, "--json"], token);
    expect(result.code, result.stderr).toBe(0);
    const answer = JSON.parse(result.stdout) as { results: { row: number; status: string; file: string }[]; mostAtOnce: number };
    expect(answer.results.map((r) => r.status)).toEqual(["completed", "completed", "completed"]);
    expect(answer.mostAtOnce).toBe(2);
    for (const r of answer.results) expect((await probeVideo(r.file)).audio).not.toBeNull();
    // the server's own record: never more than 2 of this user's videos running at the same moment
    const runs = await prisma.videoRun.findMany({ where: { userId: owner.id }, select: { createdAt: true, completedAt: true } });
    expect(runs).toHaveLength(3);
    const overlapping = runs.map((r) => runs.filter((o) => o.createdAt <= r.createdAt && o.completedAt! > r.createdAt).length);
    expect(Math.max(...overlapping)).toBeLessThanOrEqual(2);
  }, 900_000);
});
