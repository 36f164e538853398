import { describe, expect, it } from "vitest";
import { apertiumMode, apertiumTargets, apertiumTranslate } from "./apertium.server";

// Apertium and its pairs are system packages `npm test` installs (scripts/lib/system-packages.mjs)
describe("offline translation with Apertium", () => {
  it("has English to Spanish, Catalan, Galician and Esperanto, and nothing for a pair Debian lacks", () => {
    expect(apertiumTargets("en").sort()).toEqual(["ca", "eo", "es", "gl"]);
    expect(apertiumMode("en-US", "es")).toBe("eng-spa");
    expect(apertiumMode("en", "ja")).toBeNull();
  });

  it("translates several texts in one run, each back in its place, empty ones left empty", async () => {
    const out = await apertiumTranslate(["The octopus and its three hearts", "", "The ocean is deep\nand dark."], "en", "es");
    expect(out).toHaveLength(3);
    expect(out[0]).toMatch(/pulpo/i);
    expect(out[1]).toBe("");
    expect(out[2]).toMatch(/océano/i);
    expect(out.join(" ")).not.toMatch(/[*#@]/);
  });
});
