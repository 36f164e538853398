// Whether a process id names a live process on this machine: for folders named or marked by the process that made
// them (scratch copies, composition bundles), removed once that process has died without cleaning up.

/** True while a process with this pid runs here (EPERM: it runs, as another user). */
export function isProcessRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}
