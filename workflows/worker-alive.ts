// WORKER_ALIVE_FILE: a container's health check (docker-compose.yml) reads the age of a file the worker touches
// every 10 s while every queue's worker runs, so a worker whose polling stopped is seen as unhealthy within a minute.
import fs from "node:fs";

type RunState = { getState(): string };

/** Touches `file` now and every `everyMs` while every worker runs; returns the function that stops it. */
export function keepAliveFile(file: string | undefined, worker: { workers: readonly RunState[] }, everyMs = 10_000): () => void {
  if (!file) return () => {};
  const touch = () => {
    if (!worker.workers.every((w) => w.getState() === "RUNNING")) return;
    fs.promises.writeFile(file, `${new Date().toISOString()}\n`).catch((e: unknown) => console.error(`could not write WORKER_ALIVE_FILE ${file}:`, e));
  };
  touch();
  const timer = setInterval(touch, everyMs);
  return () => clearInterval(timer);
}
