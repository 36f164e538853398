import { describe, expect, it, vi } from "vitest";
import type { ProgressSnapshot } from "./projects.server";

vi.hoisted(() => {
  process.env.SESSION_SECRET = "unit-test-session-secret-of-32-characters";
  process.env.ENCRYPTION_KEY = "0".repeat(64);
});

const { navigationGates, projectStage, stepsDone } = await import("./projects.server");
const { resolutionEnum } = await import("~/lib/video-format");

const fresh: ProgressSnapshot = { scriptStatus: null, cells: [], hasCompletedMusic: false, latestVideoUrl: null, hasCompletedUpload: false };
const done = { imageUrl: "/api/media/i", audioUrl: "/api/media/a" };

describe("navigationGates", () => {
  it("keeps every pipeline link closed for a new project", () => {
    expect(navigationGates(fresh)).toEqual({ script: false, storyboard: false, music: false, render: false, upload: false });
  });

  it("opens Script and Storyboard once the script is processing or completed, not draft or error", () => {
    expect(navigationGates({ ...fresh, scriptStatus: "processing" })).toMatchObject({ script: true, storyboard: true });
    expect(navigationGates({ ...fresh, scriptStatus: "completed" })).toMatchObject({ script: true, storyboard: true });
    expect(navigationGates({ ...fresh, scriptStatus: "error" })).toMatchObject({ script: false, storyboard: false });
    expect(navigationGates({ ...fresh, scriptStatus: "draft" })).toMatchObject({ script: false });
  });

  it("opens Music only when every scene has both an image and audio", () => {
    expect(navigationGates({ ...fresh, cells: [done, { imageUrl: "/i", audioUrl: null }] }).music).toBe(false);
    expect(navigationGates({ ...fresh, cells: [done, { imageUrl: "", audioUrl: "/a" }] }).music).toBe(false);
    expect(navigationGates({ ...fresh, cells: [done, done] }).music).toBe(true);
  });

  it("opens Render after a completed music track and Upload once the latest video has a URL", () => {
    expect(navigationGates({ ...fresh, hasCompletedMusic: true }).render).toBe(true);
    expect(navigationGates({ ...fresh, latestVideoUrl: "/api/media/v" }).upload).toBe(true);
  });
});

describe("projectStage", () => {
  it("names the furthest step reached", () => {
    expect(projectStage(fresh)).toBe("script");
    expect(projectStage({ ...fresh, cells: [{ imageUrl: null, audioUrl: null }] })).toBe("storyboard");
    expect(projectStage({ ...fresh, cells: [done] })).toBe("media");
    expect(projectStage({ ...fresh, cells: [done], hasCompletedMusic: true })).toBe("music");
    expect(projectStage({ ...fresh, latestVideoUrl: "/v" })).toBe("rendered");
    expect(projectStage({ ...fresh, latestVideoUrl: "/v", hasCompletedUpload: true })).toBe("uploaded");
  });
});

describe("resolutionEnum", () => {
  it("maps the spec's format strings to the stored enum", () => {
    expect(resolutionEnum("16:9")).toBe("landscape");
    expect(resolutionEnum("9:16")).toBe("shorts");
    expect(resolutionEnum("9:16-tiktok")).toBe("tiktok");
  });
});

describe("stepsDone (the dashboard's ticks)", () => {
  it("ticks nothing for a project with no script, not even Script", () => {
    expect(Object.values(stepsDone(fresh)).some(Boolean)).toBe(false);
    expect(stepsDone({ ...fresh, scriptStatus: "processing" }).script).toBe(false);
  });
  it("a rendered video without music ticks Rendered but not Music", () => {
    const done2 = stepsDone({ ...fresh, scriptStatus: "completed", cells: [done], latestVideoUrl: "/api/media/v" });
    expect(done2).toEqual({ script: true, storyboard: true, media: true, music: false, rendered: true, uploaded: false });
  });
  it("scenes still missing media tick Storyboard, not Media", () => {
    expect(stepsDone({ ...fresh, scriptStatus: "completed", cells: [done, { imageUrl: null, audioUrl: "/a" }] })).toMatchObject({ storyboard: true, media: false });
  });
});
