import { describe, expect, it } from "vitest";
import { fieldsToSave, isOnlyMaskDots, maskedPlaceholder } from "./secret-fields";

describe("maskedPlaceholder", () => {
  it("shows as many dots as the saved secret is long", () => {
    expect(maskedPlaceholder(5, "Enter key")).toBe("•••••");
  });
  it("falls back to 8 dots when a secret is saved but its length is unknown", () => {
    expect(maskedPlaceholder(null, "Enter key")).toBe("••••••••");
    expect(maskedPlaceholder(undefined, "Enter key")).toBe("••••••••");
  });
  it("shows the hint when nothing is saved", () => {
    expect(maskedPlaceholder(0, "Enter key")).toBe("Enter key");
  });
});

describe("fieldsToSave", () => {
  it("trims, drops empty fields and fields made only of mask dots", () => {
    expect(fieldsToSave({ a: "  key-1  ", b: "   ", c: "••••", d: "ab•cd" })).toEqual({ a: "key-1", d: "ab•cd" });
    expect(isOnlyMaskDots(" •••• ")).toBe(true);
  });
});
