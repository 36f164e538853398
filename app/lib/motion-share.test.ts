import { describe, expect, it } from "vitest";
import { motionShare, sceneMotionKind } from "./motion-share";

describe("motion share", () => {
  it("counts each scene's seconds by what it shows, and the share that moves", () => {
    const share = motionShare([
      { seconds: 4, kind: "ai-clip" },
      { seconds: 3, kind: "clip" },
      { seconds: 5, kind: "still" },
      { seconds: 3, kind: "still" },
    ]);
    expect(share).toEqual({ totalSeconds: 15, clipSeconds: 3, aiClipSeconds: 4, stillSeconds: 8, movingPercent: 47 });
  });
  it("an empty video moves 0 %", () => {
    expect(motionShare([]).movingPercent).toBe(0);
  });
  it("tells AI clips from the creator's or stock clips", () => {
    expect(sceneMotionKind({ clipUrl: null, imageSource: "generated", mediaCredit: null }, true)).toBe("still");
    expect(sceneMotionKind({ clipUrl: "/c", imageSource: "generated", mediaCredit: null }, true)).toBe("ai-clip");
    expect(sceneMotionKind({ clipUrl: "/c", imageSource: "generated", mediaCredit: { provider: "pexels" } }, true)).toBe("clip");
    expect(sceneMotionKind({ clipUrl: "/c", imageSource: "upload", mediaCredit: null }, true)).toBe("clip");
    expect(sceneMotionKind({ clipUrl: "/c", imageSource: "generated", mediaCredit: null }, false)).toBe("clip");
  });
});
