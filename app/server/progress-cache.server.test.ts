// The progress cache's rules: one shared load per key, at most one per interval, stale answers served while a
// refresh runs, answers older than a run not used, ended and idle answers dropped, a bounded size.
import { describe, expect, it } from "vitest";
import { AnswerCache } from "./progress-cache.server";

function clock(start = 1_000_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => void (now += ms) };
}

/** A load the test resolves by hand, counting how often it was started. */
function manualLoad<T>() {
  const pending: ((value: T) => void)[] = [];
  const load = () => new Promise<T>((resolve) => pending.push(resolve));
  return { load, started: () => pending.length, resolveLast: (value: T) => pending.at(-1)!(value) };
}

describe("AnswerCache", () => {
  it("shares one load between concurrent readers", async () => {
    const time = clock();
    const cache = new AnswerCache({ now: time.now });
    const source = manualLoad<number>();
    const readers = Array.from({ length: 50 }, () => cache.read("wf", source.load));
    expect(source.started()).toBe(1);
    source.resolveLast(7);
    expect(await Promise.all(readers)).toEqual(Array(50).fill(7));
  });

  it("serves a recent answer without loading, and a stale one at once while one refresh runs", async () => {
    const time = clock();
    const cache = new AnswerCache({ now: time.now, intervalMs: 1000 });
    const source = manualLoad<number>();
    const first = cache.read("wf", source.load);
    source.resolveLast(1);
    await first;
    time.advance(500);
    expect(await cache.read("wf", source.load)).toBe(1);
    expect(source.started()).toBe(1);

    time.advance(600); // 1.1 s old: stale
    const stale = await Promise.all([cache.read("wf", source.load), cache.read("wf", source.load), cache.read("wf", source.load)]);
    expect(stale).toEqual([1, 1, 1]); // answered without waiting for the refresh
    expect(source.started()).toBe(2); // one refresh for all of them
    source.resolveLast(2);
    await Promise.resolve();
    await Promise.resolve();
    expect(await cache.read("wf", source.load)).toBe(2);
    expect(source.started()).toBe(2);
  });

  it("loads again when its answer is older than the caller's run (notBefore), and for a stream's maxAge", async () => {
    const time = clock();
    const cache = new AnswerCache({ now: time.now });
    let n = 0;
    const load = async () => ++n;
    expect(await cache.read("wf", load)).toBe(1);
    time.advance(10);
    expect(await cache.read("wf", load, { notBefore: time.now() - 20 })).toBe(1);
    expect(await cache.read("wf", load, { notBefore: time.now() })).toBe(2);
    time.advance(300);
    expect(await cache.read("wf", load, { maxAgeMs: 1000 })).toBe(2);
    time.advance(800);
    expect(await cache.read("wf", load, { maxAgeMs: 1000 })).toBe(3);
  });

  it("keeps an ended run's answer briefly without refreshing it, then drops it; drops answers nobody asks for", async () => {
    const time = clock();
    const cache = new AnswerCache({ now: time.now, intervalMs: 1000, endedMs: 5000, idleMs: 30_000 });
    let loads = 0;
    const ended = async () => (++loads, "ended");
    await cache.read("done", ended, { ended: (v) => v === "ended" });
    time.advance(3000);
    expect(await cache.read("done", ended, { ended: (v) => v === "ended" })).toBe("ended");
    expect(loads).toBe(1);
    await cache.read("watched", async () => "running");
    time.advance(3000); // the ended answer is 6 s old
    await cache.read("other", async () => "x");
    expect(cache.size).toBe(2);
    time.advance(31_000);
    await cache.read("other", async () => "x");
    expect(cache.size).toBe(1); // "watched" went idle
  });

  it("stays within maxEntries, dropping the least recently asked", async () => {
    const time = clock();
    const cache = new AnswerCache({ now: time.now, maxEntries: 3 });
    for (const key of ["a", "b", "c"]) await cache.read(key, async () => key);
    await cache.read("a", async () => "a2");
    await cache.read("d", async () => "d");
    expect(cache.size).toBe(3);
    let reloaded = false;
    await cache.read("b", async () => ((reloaded = true), "b2"));
    expect(reloaded).toBe(true); // b was the least recently asked, so it had gone
  });

  it("does not let a load that never answers hold later readers", async () => {
    const time = clock();
    const cache = new AnswerCache({ now: time.now, loadTimeoutMs: 10_000 });
    const hung = cache.read("wf", () => new Promise<number>(() => {}));
    time.advance(5000);
    let second = 0;
    void cache.read("wf", async () => ++second);
    expect(second).toBe(0); // still joined to the first load
    time.advance(6000);
    expect(await cache.read("wf", async () => 9)).toBe(9);
    void hung;
  });

  it("passes a failed first load to its readers and keeps the last answer when a refresh fails", async () => {
    const time = clock();
    const cache = new AnswerCache({ now: time.now, intervalMs: 1000 });
    await expect(cache.read("wf", () => Promise.reject(new Error("down")))).rejects.toThrow("down");
    expect(await cache.read("wf", async () => 5)).toBe(5);
    time.advance(2000);
    expect(await cache.read("wf", () => Promise.reject(new Error("down")))).toBe(5);
    await new Promise((r) => setTimeout(r, 0));
    expect(await cache.read("wf", async () => 6)).toBe(5); // still stale: this read starts the next refresh
  });
});
