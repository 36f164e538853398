// The generation limit's one list (isGenerationRequest): every POST that starts generation, paid work or a post
// counts, through the pages' routes and /api/v1 alike; reading, cancelling and settings do not.
import { describe, expect, it } from "vitest";
import { isGenerationRequest } from "./api-token-gate.server";
import { rateLimitKindFor } from "./host/web-app.server";

const STARTS_WORK = [
  "/api/generate-script",
  "/api/ai/generate-image",
  "/api/render-video",
  "/api/ai-clips",
  "/api/scene-checks",
  "/api/platforms/posts",
  "/api/projects/p1/shorts",
  "/api/projects/p1/versions",
  "/api/v1/videos",
  "/api/v1/batches",
  "/api/v1/videos/v1/publish",
  "/api/v1/videos/v1/posts",
  "/api/v1/batches/b1/retry",
  "/api/v1/projects/p1/shorts",
  "/api/v1/projects/p1/versions",
  "/api/v1/projects/p1/render",
  "/api/v1/projects/p1/publish",
  "/api/v1/projects/p1/ai-clips",
];
const DOES_NOT = ["/api/v1/videos/v1/cancel", "/api/v1/projects/p1/transitions", "/api/settings", "/api/v1/channels", "/api/error-logs", "/api/projects/p1/shorts/extra"];

describe("the generation limit's routes", () => {
  it("counts every POST that starts work, from a page or a program", () => {
    expect(STARTS_WORK.filter((p) => !isGenerationRequest("POST", p))).toEqual([]);
    expect(STARTS_WORK.filter((p) => rateLimitKindFor("POST", p) !== "generation")).toEqual([]);
  });
  it("does not count reads, cancels, settings or other writes", () => {
    expect(DOES_NOT.filter((p) => isGenerationRequest("POST", p))).toEqual([]);
    expect(STARTS_WORK.filter((p) => isGenerationRequest("GET", p))).toEqual([]);
  });
});
