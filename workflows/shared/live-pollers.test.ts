import { describe, expect, it } from "vitest";
import { LIVE_POLLER_MS, livePollerIdentities } from "./live-pollers";

const at = (ms: number) => ({ seconds: Math.floor(ms / 1000), nanos: (ms % 1000) * 1e6 });

describe("livePollerIdentities", () => {
  const now = 1_800_000_000_000;
  it("counts a worker whose long poll started within the window, once however many pollers it runs", () => {
    const pollers = [
      { identity: "101@web-1", lastAccessTime: at(now - 5_000) },
      { identity: "101@web-1", lastAccessTime: at(now - 61_000) },
      { identity: "202@web-2", lastAccessTime: at(now - 70_000) },
    ];
    expect(livePollerIdentities(pollers, now)).toEqual(["101@web-1", "202@web-2"]);
  });
  it("leaves out a worker not seen for longer than the window (hung, frozen or killed), and copes with no list", () => {
    expect(livePollerIdentities([{ identity: "303@host", lastAccessTime: at(now - LIVE_POLLER_MS - 1) }], now)).toEqual([]);
    expect(livePollerIdentities([{ identity: "404@host", lastAccessTime: null }], now)).toEqual([]);
    expect(livePollerIdentities(undefined, now)).toEqual([]);
  });
});
