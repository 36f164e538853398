import { describe, expect, it } from "vitest";
import type { NavigationGates } from "~/server/projects.server";
import { visibleNavLinks } from "./nav-links";

const CLOSED_GATES: NavigationGates = { script: false, storyboard: false, music: false, render: false, upload: false };

const labels = (gates: Parameters<typeof visibleNavLinks>[0]) => visibleNavLinks(gates).map((l) => l.label);

describe("visibleNavLinks", () => {
  it("shows only Create New Video before a script exists", () => {
    expect(labels(CLOSED_GATES)).toEqual(["Create New Video"]);
  });

  it("adds the links in the spec's order as gates open", () => {
    expect(labels({ ...CLOSED_GATES, script: true, storyboard: true })).toEqual(["Create New Video", "View Script", "View Storyboard"]);
    expect(labels({ script: true, storyboard: true, music: true, render: true, upload: true })).toEqual([
      "Create New Video",
      "View Script",
      "View Storyboard",
      "Add Music",
      "Render Video",
      "Upload",
    ]);
  });

  it("links each label to its page", () => {
    const all = visibleNavLinks({ script: true, storyboard: true, music: true, render: true, upload: true });
    expect(all.map((l) => l.to)).toEqual(["/create", "/script", "/storyboard", "/music", "/render", "/upload"]);
  });
});
