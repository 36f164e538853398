// The storyboard page's state: no flash of the empty state after a split, no start button without a server.
import { describe, expect, it } from "vitest";
import { formatWaited, storyboardPageState } from "./storyboard-view";

const base = { statusLoading: false, unreachable: false, sceneCount: 0 };

describe("storyboardPageState", () => {
  it("a finished split whose scenes are not read yet is loading, not empty", () => {
    expect(storyboardPageState({ ...base, status: { status: "completed", cellCount: 6 } })).toBe("loading-scenes");
    expect(storyboardPageState({ ...base, status: { status: "completed", cellCount: 6 }, sceneCount: 6 })).toBe("completed");
  });
  it("only a storyboard that does not exist is empty (Ready to Generate Storyboard)", () => {
    expect(storyboardPageState({ ...base, status: { status: "not_found", cellCount: 0 } })).toBe("empty");
    expect(storyboardPageState({ ...base, status: { status: "processing", cellCount: 0 } })).toBe("processing");
    expect(storyboardPageState({ ...base, status: { status: "error", cellCount: 0 } })).toBe("error");
  });
  it("without a server and no status read, says so instead of offering to start", () => {
    expect(storyboardPageState({ ...base, status: undefined, unreachable: true })).toBe("unreachable");
    expect(storyboardPageState({ ...base, status: undefined, statusLoading: true })).toBe("loading");
    expect(storyboardPageState({ ...base, status: { status: "completed", cellCount: 4 }, unreachable: true })).toBe("unreachable");
  });
  it("keeps showing the scenes it has while the server is away", () => {
    expect(storyboardPageState({ ...base, status: { status: "completed", cellCount: 4 }, sceneCount: 4, unreachable: true })).toBe("completed");
  });
});

describe("formatWaited", () => {
  it("seconds, then minutes and seconds", () => {
    expect(formatWaited(4.6)).toBe("4 s");
    expect(formatWaited(65)).toBe("1 min 05 s");
  });
});
