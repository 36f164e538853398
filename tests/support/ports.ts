// Ports on loopback for tests that start servers of their own: a free one, and the process listening on one (so a
// drill can SIGKILL the real PostgreSQL or Temporal server, not the script that started it).
import fs from "node:fs";
import net from "node:net";

export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((r) => server.close(r));
  return port;
}

/** The pid that owns a listening TCP port on loopback (from /proc): the real PostgreSQL or Temporal server. */
export function pidListeningOn(port: number): number {
  const hex = port.toString(16).toUpperCase().padStart(4, "0");
  const inode = fs
    .readFileSync("/proc/net/tcp", "utf8")
    .split("\n")
    .map((l) => l.trim().split(/\s+/))
    .find((f) => f[1]?.endsWith(`:${hex}`) && f[3] === "0A")?.[9];
  if (!inode) throw new Error(`nothing listens on ${port}`);
  for (const pid of fs.readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
    try {
      for (const fd of fs.readdirSync(`/proc/${pid}/fd`)) {
        if (fs.readlinkSync(`/proc/${pid}/fd/${fd}`) === `socket:[${inode}]`) return Number(pid);
      }
    } catch {
      // a process that ended, or one we may not read
    }
  }
  throw new Error(`no process owns port ${port}`);
}
