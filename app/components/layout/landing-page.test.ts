// The landing page's word on why a signed-out visitor is there: only for the app's own pages.
import { describe, expect, it } from "vitest";
import { signedOutReason } from "./landing-page";

describe("signedOutReason", () => {
  it("names the page that was asked for", () => {
    expect(signedOutReason("/render")).toBe("Sign in to open Render: you are signed out, or your session has ended.");
    expect(signedOutReason("/projects/abc/upload")).toBe("Sign in to open the project: you are signed out, or your session has ended.");
  });
  it("says nothing for a missing, foreign or made-up page", () => {
    expect(signedOutReason(null)).toBeNull();
    expect(signedOutReason("https://evil.example/render")).toBeNull();
    expect(signedOutReason("/constructor")).toBeNull();
    expect(signedOutReason("/<script>")).toBeNull();
  });
});
