import { describe, expect, it } from "vitest";
import { PLATFORM_CHECKS_SENTENCE } from "./platform-guidelines";

describe("the guidelines card's sentence on what Reelsmith checks", () => {
  it("says the limits the platform checks enforce, from the same constants", () => {
    expect(PLATFORM_CHECKS_SENTENCE).toBe(
      "Before posting, Reelsmith checks each platform's own limits: TikTok up to 4 GB and the length your account allows (10 minutes unless TikTok says otherwise); Instagram Reels 3 seconds to 15 minutes, up to 300 MB.",
    );
  });
});
