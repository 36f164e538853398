import { describe, expect, it } from "vitest";
import { STAGE_STEPS, stagePage } from "./project-stage";

const PROJECT_STAGES = STAGE_STEPS.map((s) => s.stage);

describe("stagePage", () => {
  it("opens each stage at its own screen when every screen exists", () => {
    const none = new Set<string>();
    expect(PROJECT_STAGES.map((s) => stagePage(s, none))).toEqual(["/script", "/storyboard", "/music", "/music", "/upload", "/upload"]);
  });

  it("never opens a screen that is not built: music and upload fall back to render", () => {
    const notBuilt = new Set(["/music", "/upload"]);
    expect(PROJECT_STAGES.map((s) => stagePage(s, notBuilt))).toEqual(["/script", "/storyboard", "/render", "/render", "/render", "/render"]);
  });

  it("opens a project at the music stage on the Music screen", () => {
    expect(stagePage("music", new Set(["/upload"]))).toBe("/music");
  });
});
