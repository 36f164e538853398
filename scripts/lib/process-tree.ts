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
