import { describe, expect, it } from "vitest";
import {
  CURRENT_SCRIPT_KEY,
  VIDEO_DETAILS_KEY,
  loadCurrentScript,
  loadVideoDetails,
  saveCurrentScript,
  saveVideoDetails,
  type CurrentScript,
} from "./browser-storage";

function memoryStorage() {
  const map = new Map<string, string>();
  return {
    map,
    getItem: (k: string) => map.get(k) ?? null,
    setItem: (k: string, v: string) => void map.set(k, v),
    removeItem: (k: string) => void map.delete(k),
  };
}

const script = (createdAt: Date, status: CurrentScript["status"] = "completed"): CurrentScript => ({
  title: "Tides",
  topic: "Why the sea rises",
  resolution: "16:9",
  duration: 300,
  script: "The sea rises.",
  status,
  createdAt: createdAt.toISOString(),
});

describe("browser storage", () => {
  it("round-trips valid video details", () => {
    const storage = memoryStorage();
    saveVideoDetails(storage, { title: "Tides", topic: "Why", resolution: "9:16", duration: 30 });
    expect(loadVideoDetails(storage)).toEqual({ title: "Tides", topic: "Why", resolution: "9:16", duration: 30 });
  });

  it("removes corrupt details and scripts", () => {
    const storage = memoryStorage();
    storage.setItem(VIDEO_DETAILS_KEY, "{not json");
    storage.setItem(CURRENT_SCRIPT_KEY, JSON.stringify({ title: 3 }));
    expect(loadVideoDetails(storage)).toBeNull();
    expect(loadCurrentScript(storage)).toBeNull();
    expect(storage.map.size).toBe(0);
  });

  it("discards a completed script saved over 30 minutes ago, keeps a fresh one and a processing one", () => {
    const storage = memoryStorage();
    const now = Date.now();
    saveCurrentScript(storage, script(new Date(now - 31 * 60 * 1000)));
    expect(loadCurrentScript(storage, now)).toBeNull();
    expect(storage.map.has(CURRENT_SCRIPT_KEY)).toBe(false);

    saveCurrentScript(storage, script(new Date(now - 29 * 60 * 1000)));
    expect(loadCurrentScript(storage, now)?.status).toBe("completed");

    saveCurrentScript(storage, script(new Date(now - 60 * 60 * 1000), "processing"));
    expect(loadCurrentScript(storage, now)?.status).toBe("processing");
  });
});
