import { describe, expect, it } from "vitest";
import { exceedsDescriptionLimit, exceedsTagsLimit, initialCategory, parseTags } from "./youtube";

describe("upload form rules", () => {
  it("splits tags on commas, trims them and drops empties", () => {
    expect(parseTags(" bees, honey ,, , waggle dance,")).toEqual(["bees", "honey", "waggle dance"]);
    expect(parseTags("")).toEqual([]);
  });
  it("flags text past YouTube's limits (4,900 and 400 characters)", () => {
    expect(exceedsDescriptionLimit("a".repeat(4900))).toBe(false);
    expect(exceedsDescriptionLimit("a".repeat(4901))).toBe(true);
    expect(exceedsTagsLimit("a".repeat(400))).toBe(false);
    expect(exceedsTagsLimit("a".repeat(401))).toBe(true);
  });
  it("starts at category 22, then takes the saved preference or the default 24", () => {
    expect(initialCategory(null, false)).toBe("22");
    expect(initialCategory(null, true)).toBe("24");
    expect(initialCategory("27", true)).toBe("27");
    expect(initialCategory("99", true)).toBe("24");
  });
});
