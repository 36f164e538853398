// Drills for the parts `npm start` runs itself (issue 31): PostgreSQL and the Temporal server are killed with
// SIGKILL and come back by themselves, with what they held: the same supervision code start.mjs uses
// (scripts/lib/database.mjs, temporal-server.mjs, processes.mjs), on spare ports and a throwaway data folder.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Client, Connection } from "@temporalio/client";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../scripts/lib/database.mjs";
import { stopChildren } from "../../scripts/lib/processes.mjs";
import { startTemporalDevServer } from "../../scripts/lib/temporal-server.mjs";
import { freePort, pidListeningOn } from "../support/ports";

const work = fs.mkdtempSync(path.join(os.tmpdir(), "reelsmith-drill-"));
fs.chmodSync(work, 0o755);
const logged: string[] = [];
const original = { log: console.log, error: console.error };
console.log = (...args: unknown[]) => void logged.push(args.join(" "));
console.error = (...args: unknown[]) => void logged.push(args.join(" "));

let database: Awaited<ReturnType<typeof openDatabase>> | undefined;
const testDatabaseUrl = process.env.DATABASE_URL;
afterAll(async () => {
  process.env.DATABASE_URL = testDatabaseUrl;
  await stopChildren(5000);
  await database?.stop().catch(() => {});
  Object.assign(console, original);
  fs.rmSync(work, { recursive: true, force: true });
});

async function eventually<T>(what: string, attempt: () => Promise<T>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await attempt();
    } catch (e) {
      if (Date.now() > deadline) throw new Error(`${what}: ${e instanceof Error ? e.message : String(e)}`);
      await new Promise((r) => setTimeout(r, 500));
    }
  }
}

describe("drills: the parts npm start runs are started again when killed", () => {
  it("PostgreSQL: SIGKILL, back within 30 s with its data, and the log says so", async () => {
    const port = await freePort();
    delete process.env.DATABASE_URL; // the test's own database is not the one drilled: openDatabase starts one
    database = await openDatabase({ supervise: true, dataDir: path.join(work, "postgres"), port });
    const query = async (sql: string) => {
      const client = new pg.Client({ connectionString: database!.url, connectionTimeoutMillis: 2000 });
      await client.connect();
      try {
        return (await client.query(sql)).rows;
      } finally {
        await client.end();
      }
    };
    await query("CREATE TABLE drill (note text); INSERT INTO drill VALUES ('before the kill')");
    const pid = pidListeningOn(port);
    const killedAt = Date.now();
    process.kill(pid, "SIGKILL");
    const rows = await eventually("PostgreSQL back", () => query("SELECT note FROM drill"));
    expect(rows).toEqual([{ note: "before the kill" }]);
    expect(Date.now() - killedAt).toBeLessThan(30_000);
    expect(pidListeningOn(port)).not.toBe(pid);
    expect(logged.join("\n")).toMatch(/postgres exited \(SIGKILL\); restarting it in 1 s/);
    expect(logged.join("\n")).toMatch(/postgres is back/);
  }, 120_000);

  it("Temporal: SIGKILL, back within 30 s with its history, and a client made before the kill works again", async () => {
    const port = await freePort();
    const temporal = await startTemporalDevServer({ port, headless: true, dbFile: path.join(work, "temporal.db"), name: "drill-temporal", supervise: true });
    const connection = await Connection.connect({ address: temporal.address });
    const client = new Client({ connection });
    const handle = await client.workflow.start("noSuchWorkflowType", { taskQueue: "drill", workflowId: "drill-kept-through-the-kill" });
    const pid = pidListeningOn(port);
    const killedAt = Date.now();
    process.kill(pid, "SIGKILL");
    const description = await eventually("Temporal back", () => client.workflow.getHandle(handle.workflowId).describe());
    expect(description.status.name).toBe("RUNNING");
    expect(Date.now() - killedAt).toBeLessThan(30_000);
    expect(logged.join("\n")).toMatch(/drill-temporal \(pid \d+\) exited \(SIGKILL\); restarting it in 1 s/);
    await connection.close();
  }, 120_000);
});
