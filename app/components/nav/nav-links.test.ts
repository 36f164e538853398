import { describe, expect, it } from "vitest";
import type { NavigationGates } from "~/core/projects.server";
import { visibleNavLinks } from "./nav-links";

const CLOSED_GATES: NavigationGates = { script: false, storyboard: false, music: false, render: false, upload: false };
const OPEN_GATES: NavigationGates = { script: true, storyboard: true, music: true, render: true, upload: true };

const labels = (gates: Parameters<typeof visibleNavLinks>[0]) => visibleNavLinks(gates).map((l) => l.label);

describe("visibleNavLinks", () => {
  it("shows only Create New Video before a script exists", () => {
    expect(labels(CLOSED_GATES)).toEqual(["Create New Video"]);
  });

  it("adds the links in the spec's order as gates open", () => {
    expect(labels({ ...CLOSED_GATES, script: true, storyboard: true })).toEqual(["Create New Video", "View Script", "View Storyboard"]);
    expect(labels({ ...CLOSED_GATES, script: true, storyboard: true, render: true })).toEqual([
      "Create New Video",
      "View Script",
      "View Storyboard",
      "Render Video",
    ]);
  });

  it("shows every stage's link once its gate is open, Add Music and Upload included", () => {
    expect(labels(OPEN_GATES)).toEqual(["Create New Video", "View Script", "View Storyboard", "Add Music", "Render Video", "Upload"]);
    expect(labels({ ...OPEN_GATES, upload: false })).not.toContain("Upload");
    expect(labels({ ...CLOSED_GATES, script: true, storyboard: true, music: true })).toContain("Add Music");
  });

  it("links each label to its page", () => {
    expect(visibleNavLinks(OPEN_GATES).map((l) => l.to)).toEqual(["/create", "/script", "/storyboard", "/music", "/render", "/upload"]);
  });
});
