import { describe, expect, it } from "vitest";
import { flattenModels, modelLabel, truncateDescription, defaultModelText, modelsCachedLabel } from "./model-options";

describe("truncateDescription", () => {
  it("keeps a description of up to 50 characters as it is", () => {
    const fifty = "x".repeat(50);
    expect(truncateDescription(fifty)).toBe(fifty);
    expect(truncateDescription("Cinematic photographs")).toBe("Cinematic photographs");
  });

  it("cuts a longer one at 50 characters and adds an ellipsis", () => {
    const long = "A cinematic model for photorealistic scenes with dramatic lighting and depth";
    expect(truncateDescription(long)).toBe(`${long.slice(0, 50)}...`);
    expect(truncateDescription("y".repeat(51))).toBe(`${"y".repeat(50)}...`);
  });

  it("treats a missing description as empty", () => {
    expect(truncateDescription(undefined)).toBe("");
    expect(modelLabel({ id: "a", name: "Kino", description: "" })).toBe("Kino");
  });
});

describe("modelLabel and flattenModels", () => {
  it("labels a model with its name and shortened description", () => {
    expect(modelLabel({ id: "k", name: "Leonardo Kino XL", description: "Cinematic" })).toBe("Leonardo Kino XL - Cinematic");
  });

  it("lists custom, featured, then core models, each model once", () => {
    const m = (id: string) => ({ id, name: id, description: "" });
    const flat = flattenModels({ custom_models: [m("c")], featured_models: [m("f"), m("x")], core_models: [m("x"), m("core")] });
    expect(flat.map((x) => x.id)).toEqual(["c", "f", "x", "core"]);
    expect(flattenModels(null)).toEqual([]);
  });
});

describe("the model card's words", () => {
  it("one model, many models", () => {
    expect(modelsCachedLabel(1)).toBe("(1 model cached)");
    expect(modelsCachedLabel(0)).toBe("(0 models cached)");
    expect(modelsCachedLabel(12)).toBe("(12 models cached)");
  });
  it("names Leonardo Kino XL as the default only when a Leonardo key is saved", () => {
    expect(defaultModelText(true)).toBe("The model that draws your scene images. The default is Leonardo Kino XL.");
    expect(defaultModelText(false)).toMatch(/^No Leonardo key is saved, so scene images are drawn offline/);
    expect(defaultModelText(false)).not.toMatch(/^The default is/);
  });
});
