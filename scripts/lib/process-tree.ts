// What a benchmark samples of the processes and folders it watches: a process with its descendants (a worker with
// its browser and ffmpeg) and their resident memory, and the bytes under a folder.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

/** `root` and its descendants, with their resident memory and program names (ps's comm: at most 15 characters). */
export function processTree(root: number): { pid: number; rssKiB: number; name: string }[] {
  const rows = execFileSync("ps", ["-eo", "pid=,ppid=,rss=,comm="])
    .toString()
    .trim()
    .split("\n")
    .map((l) => /^\s*(\d+)\s+(\d+)\s+(\d+)\s+(.*)$/.exec(l))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ pid: Number(m[1]), ppid: Number(m[2]), rssKiB: Number(m[3]), name: m[4]! }));
  const children = new Map<number, number[]>();
  for (const { pid, ppid } of rows) children.set(ppid, [...(children.get(ppid) ?? []), pid]);
  const byPid = new Map(rows.map((r) => [r.pid, r]));
  const tree: { pid: number; rssKiB: number; name: string }[] = [];
  const stack = [root];
  while (stack.length) {
    const pid = stack.pop()!;
    const row = byPid.get(pid);
    if (row) tree.push({ pid, rssKiB: row.rssKiB, name: row.name });
    stack.push(...(children.get(pid) ?? []));
  }
  return tree;
}

/** A sample's memory by program name (MiB, largest first, with how many processes): "ffmpeg 1486 (3), node 1116". */
export function memoryByProgram(tree: { rssKiB: number; name: string }[]): string {
  const byName = new Map<string, { kib: number; count: number }>();
  for (const p of tree) {
    const entry = byName.get(p.name) ?? { kib: 0, count: 0 };
    entry.kib += p.rssKiB;
    entry.count++;
    byName.set(p.name, entry);
  }
  return [...byName.entries()]
    .sort((a, b) => b[1].kib - a[1].kib)
    .map(([name, { kib, count }]) => `${name} ${(kib / 1024).toFixed(0)}${count > 1 ? ` (${count})` : ""}`)
    .join(", ");
}

/**
 * CPU seconds of `root` and its descendants: each process's own (all its threads) and that of the programs it ran
 * and waited for. A long-lived child (the neural voice's process) counts while it runs, not only once it has ended.
 */
export function treeCpuSeconds(root: number = process.pid): number {
  let seconds = 0;
  // one that ended while we looked is left out: its parent's cutime and cstime count it once it is waited for
  for (const { pid } of processTree(root)) seconds += readStat(`/proc/${pid}/stat`)?.withChildren ?? 0;
  return seconds;
}

/**
 * A /proc stat file's name (at most 15 characters) and CPU seconds: its own (utime + stime, fields 14-15) and with
 * the children it waited for (cutime + cstime, 16-17), from clock ticks of 10 ms; null when it is gone.
 */
function readStat(file: string): { name: string; own: number; withChildren: number } | null {
  try {
    const stat = fs.readFileSync(file, "utf8");
    const f = stat.slice(stat.lastIndexOf(") ") + 2).split(" ");
    const own = (Number(f[11]) + Number(f[12])) / 100;
    return { name: stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")")), own, withChildren: own + (Number(f[13]) + Number(f[14])) / 100 };
  } catch {
    return null;
  }
}

/** The bytes of the files under `folder` (files removed while it looks are skipped). */
export function folderBytes(folder: string): number {
  let total = 0;
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(folder, { withFileTypes: true });
  } catch {
    return 0;
  }
  for (const entry of entries) {
    const file = path.join(folder, entry.name);
    try {
      total += entry.isDirectory() ? folderBytes(file) : fs.statSync(file).size;
    } catch {
      // removed while we looked
    }
  }
  return total;
}

/** A process's (or with `tid`, one of its threads') name, as /proc gives it, and its own CPU seconds. */
function ownCpu(pid: number, tid?: number): { program: string; seconds: number } | null {
  const stat = readStat(tid === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${tid}/stat`);
  return stat && { program: stat.name, seconds: stat.own };
}

/** A process's program: its name, or for Node (whose main thread /proc calls "MainThread") the script it runs. */
function programName(pid: number, comm: string): string {
  if (comm !== "MainThread" && comm !== "node") return comm;
  try {
    const script = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").find((a) => /\.(m?js|ts)$/.test(a));
    return script ? `node ${path.basename(script)}` : comm;
  } catch {
    return comm;
  }
}

/**
 * Where a process tree's CPU goes, by program: samples the tree every `intervalMs` and keeps each process's last own
 * figure, so programs that come and go (each ffmpeg a render runs) are counted under their name. A process that lives
 * less than an interval is not seen: its CPU shows in the tree's total (its parent's children's time) and `stop`
 * returns it as "unsampled". The roots are named by `rootName` (a worker is "node" to /proc, as its voices may be),
 * with their threads apart by name ("worker (node): V8Worker" is V8's garbage collection and compiling helpers).
 */
export function sampleCpuByProgram(roots: number[], rootName: string, intervalMs = 100): { stop: () => Map<string, number> } {
  const totalBefore = roots.reduce((sum, pid) => sum + treeCpuSeconds(pid), 0);
  const before = new Map<number, number>();
  for (const root of roots) for (const { pid } of processTree(root)) before.set(pid, ownCpu(pid)?.seconds ?? 0);
  const last = new Map<number, { program: string; seconds: number }>();
  const rootPids = new Set(roots);
  // a root's threads apart (its JavaScript, libuv's pool, V8's helpers, native libraries' own threads), by name
  const threadsBefore = new Map<string, number>();
  const threadKey = (root: number, tid: number) => `${root}/${tid}`;
  const threadsOf = (root: number) => {
    try {
      return fs.readdirSync(`/proc/${root}/task`).map(Number);
    } catch {
      return [];
    }
  };
  for (const root of roots) for (const tid of threadsOf(root)) threadsBefore.set(threadKey(root, tid), ownCpu(root, tid)?.seconds ?? 0);
  const threadLast = new Map<string, { program: string; seconds: number }>();
  const sample = () => {
    for (const root of roots) {
      for (const { pid } of processTree(root)) {
        if (rootPids.has(pid)) continue;
        const own = ownCpu(pid);
        if (own) last.set(pid, { program: programName(pid, own.program), seconds: own.seconds - (before.get(pid) ?? 0) });
      }
      for (const tid of threadsOf(root)) {
        const own = ownCpu(root, tid);
        const key = threadKey(root, tid);
        // numbered threads of a pool (as "libuv-worker-3" might be) are counted under one name for each kind
        if (own) threadLast.set(key, { program: `${rootName}: ${own.program.replace(/[-_ ]?\d+$/, "")}`, seconds: own.seconds - (threadsBefore.get(key) ?? 0) });
      }
    }
  };
  sample();
  const timer = setInterval(sample, intervalMs);
  return {
    stop() {
      clearInterval(timer);
      sample();
      const byProgram = new Map<string, number>();
      for (const { program, seconds } of [...last.values(), ...threadLast.values()]) byProgram.set(program, (byProgram.get(program) ?? 0) + seconds);
      const sampled = [...byProgram.values()].reduce((a, b) => a + b, 0);
      const total = roots.reduce((sum, pid) => sum + treeCpuSeconds(pid), 0) - totalBefore;
      if (total - sampled > 0.05) byProgram.set("unsampled", total - sampled);
      return new Map([...byProgram].sort((a, b) => b[1] - a[1]));
    },
  };
}
