// What a benchmark samples of the processes and folders it watches: a process with its descendants (a worker with
// its browser and ffmpeg) and their resident memory, and the bytes under a folder.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

/** `root` and its descendants, with their resident memory. */
export function processTree(root: number): { pid: number; rssKiB: number }[] {
  const rows = execFileSync("ps", ["-eo", "pid=,ppid=,rss="]).toString().trim().split("\n").map((l) => l.trim().split(/\s+/).map(Number));
  const children = new Map<number, number[]>();
  for (const [pid, ppid] of rows) children.set(ppid!, [...(children.get(ppid!) ?? []), pid!]);
  const rss = new Map(rows.map(([pid, , kb]) => [pid!, kb!]));
  const tree: { pid: number; rssKiB: number }[] = [];
  const stack = [root];
  while (stack.length) {
    const pid = stack.pop()!;
    if (rss.has(pid)) tree.push({ pid, rssKiB: rss.get(pid)! });
    stack.push(...(children.get(pid) ?? []));
  }
  return tree;
}

/**
 * CPU seconds of `root` and its descendants: each process's own (all its threads) and that of the programs it ran
 * and waited for. A long-lived child (the neural voice's process) counts while it runs, not only once it has ended.
 */
export function treeCpuSeconds(root: number = process.pid): number {
  let ticks = 0;
  for (const { pid } of processTree(root)) {
    try {
      const f = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
      // utime stime cutime cstime (fields 14-17), in clock ticks of 10 ms
      ticks += Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]);
    } catch {
      // it ended while we looked: its parent's cutime and cstime count it once it is waited for
    }
  }
  return ticks / 100;
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
