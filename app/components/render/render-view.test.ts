// The Render page's states: what it claims and offers from each combination of reads, starts and failures.
import { describe, expect, it } from "vitest";
import { IDLE_RENDER_PROGRESS, type RenderProgress } from "~/lib/render-progress";
import { renderSteps, renderView, type RenderViewInput } from "./render-view";

const completed: RenderProgress = { ...IDLE_RENDER_PROGRESS, totalScenes: 6, completedScenes: 6, stage: "Render complete", progress: 100, step: "Done" };
const rendering: RenderProgress = {
  ...IDLE_RENDER_PROGRESS,
  isRendering: true,
  isActive: true,
  totalScenes: 6,
  stage: "Rendering scenes",
  progress: 41,
  step: "Step 2 of 3: Rendering frames",
  details: "Scene 3 of 6, frame 120 of 300 (fast renderer)",
};
const base: RenderViewInput = { ready: true, sceneCount: 6, progress: completed, unreachable: false, starting: false, videoUrl: "/api/media/v1" };

describe("renderView", () => {
  it("idle with a video: Ready to Render, the button and the video", () => {
    const view = renderView(base);
    expect(view).toMatchObject({ heading: "Ready to Render", subtitle: "Render • 6 of 6 scenes rendered", canStart: true, panel: null, showVideo: true });
  });

  it("while rendering: the heading says so, the old video is hidden, no button", () => {
    const view = renderView({ ...base, progress: rendering });
    expect(view.heading).toBe("Rendering...");
    expect(view.subtitle).toBe("Render • Scene 3 of 6, frame 120 of 300 (fast renderer) (41%)");
    expect(view).toMatchObject({ canStart: false, buttonLabel: "Rendering in progress...", showVideo: false, panel: rendering });
  });

  it("a new render starting never shows the previous run's 100 %", () => {
    const view = renderView({ ...base, starting: true });
    expect(view.heading).toBe("Starting the render...");
    expect(view.panel?.progress).toBe(0);
    expect(view.panel?.stage).toBe("Preparing render...");
    expect(view.showVideo).toBe(false);
    expect(view.canStart).toBe(false);
  });

  it("server unreachable: no Ready, no button, the last known progress marked as such, no old video mid-render", () => {
    const midRender = renderView({ ...base, progress: rendering, unreachable: true });
    expect(midRender).toMatchObject({ heading: "Cannot reach the server", canStart: false, panel: rendering, panelIsLastKnown: true, showVideo: false });
    expect(midRender.subtitle).not.toMatch(/scenes rendered/);
    const idle = renderView({ ...base, unreachable: true });
    expect(idle).toMatchObject({ heading: "Cannot reach the server", canStart: false, panel: null });
  });

  it("before the first progress read, the button waits", () => {
    expect(renderView({ ...base, progress: undefined }).canStart).toBe(false);
  });

  it("not ready: Complete Your Storyboard; a failed last render is reported", () => {
    expect(renderView({ ...base, ready: false, videoUrl: null }).heading).toBe("Complete Your Storyboard");
    expect(renderView({ ...base, ready: false, videoUrl: null }).subtitle).toBe("Render • 0 of 6 scenes rendered");
    expect(renderView({ ...base, progress: { ...IDLE_RENDER_PROGRESS, error: "ffmpeg died" } }).lastError).toBe("ffmpeg died");
  });
});

describe("renderSteps", () => {
  it("shows all three steps, with the current one", () => {
    expect(renderSteps(rendering).map((s) => s.state)).toEqual(["done", "current", "todo"]);
    expect(renderSteps({ ...rendering, step: "Step 3 of 3: Saving the video" }).map((s) => s.state)).toEqual(["done", "done", "current"]);
    expect(renderSteps({ ...rendering, step: "Step 1 of 3: Collecting scenes" }).map((s) => s.state)).toEqual(["current", "todo", "todo"]);
    expect(renderSteps(completed).map((s) => s.state)).toEqual(["done", "done", "done"]);
    expect(renderSteps(rendering).map((s) => s.label)).toEqual(["Prepare the scenes", "Render the frames", "Save the video"]);
  });
});
