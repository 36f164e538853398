import { describe, expect, it } from "vitest";
import { STAGE_STEPS, stagePage } from "./project-stage";

const PROJECT_STAGES = STAGE_STEPS.map((s) => s.stage);

describe("stagePage", () => {
  it("opens each stage at the screen of its next step", () => {
    expect(PROJECT_STAGES.map((s) => stagePage(s))).toEqual(["/script", "/storyboard", "/music", "/music", "/upload", "/upload"]);
  });
});
