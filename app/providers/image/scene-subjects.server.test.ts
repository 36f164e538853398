// The offline illustrator picks pictures that match what a scene says, and never draws text.
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { planSceneArt, renderSceneImage } from "./offline-scene.server";
import { planChunks } from "~/lib/script";
import { writeOfflineChunk } from "../text/offline-writer";
import { offlineScenes } from "../text/scenes";
import { iconSvg, normalizeWord, pickSceneSubjects, pickStoryboardSubjects, sceneSubjectNames } from "./scene-subjects.server";

/** Twenty scenes with one clear subject each (animals, objects, places), and the pictures that show it. */
const SCENES: { narration: string; prompt: string; expected: string[] }[] = [
  { narration: "Octopuses can change the colour of their skin in a fraction of a second.", prompt: "octopuses, colour, skin — scene 1 of \"Ocean Minds\", cinematic photograph, soft natural light, wide 16:9 frame", expected: ["octopus"] },
  { narration: "A honeybee visits up to five thousand flowers in a single day.", prompt: "honeybee, flowers, visits", expected: ["honeybee"] },
  { narration: "The elephant remembers the path to water for decades.", prompt: "elephant, water, path", expected: ["elephant"] },
  { narration: "Penguins huddle together to survive the Antarctic winter.", prompt: "penguins, winter, huddle", expected: ["penguin"] },
  { narration: "The old castle on the hill was built in the twelfth century.", prompt: "castle, hill, century", expected: ["castle"] },
  { narration: "Every volcano has a chamber of magma deep beneath it.", prompt: "volcano, magma, chamber", expected: ["volcano"] },
  { narration: "Blue whales sing songs that travel hundreds of kilometres.", prompt: "whales, songs", expected: ["whale", "spouting-whale"] },
  { narration: "The first rocket to reach orbit changed how we see the sky.", prompt: "rocket, orbit, sky", expected: ["rocket"] },
  { narration: "A cup of coffee in the morning wakes up the brain.", prompt: "coffee, morning, brain", expected: ["hot-beverage", "brain"] },
  { narration: "Her guitar had only four strings left, but she played on.", prompt: "guitar, strings", expected: ["guitar"] },
  { narration: "The bicycle is the most efficient machine humans ever built.", prompt: "bicycle, machine", expected: ["bicycle"] },
  { narration: "Cats sleep for around sixteen hours every day.", prompt: "cats, sleep, hours", expected: ["cat", "cat-face"] },
  { narration: "A robot in the factory assembles a car in under a minute.", prompt: "robot, factory, car", expected: ["robot"] },
  { narration: "The train crossed the mountains through a long tunnel.", prompt: "train, mountains, tunnel", expected: ["train", "mountain", "locomotive"] },
  { narration: "Pizza was first sold on the streets of Naples.", prompt: "pizza, streets, naples", expected: ["pizza"] },
  { narration: "The lion rests in the shade through the hottest hours.", prompt: "lion, shade, hours", expected: ["lion"] },
  { narration: "Books were once copied by hand, one page at a time.", prompt: "books, page, hand", expected: ["books", "open-book", "closed-book"] },
  { narration: "Tall pine trees cover the hills of the northern forest.", prompt: "trees, forest, hills", expected: ["evergreen-tree", "deciduous-tree", "palm-tree"] },
  { narration: "A tiny snail carries its house wherever it goes.", prompt: "snail, house", expected: ["snail"] },
  { narration: "At night the moon lights the desert dunes in silver.", prompt: "moon, desert, night", expected: ["crescent-moon", "full-moon", "desert", "new-moon", "first-quarter-moon"] },
];

describe("offline illustrations: subjects from the scene's words", () => {
  it("singularises the scene's words", () => {
    expect(["Octopuses", "wolves", "cities", "bees", "mice"].map(normalizeWord)).toEqual(["octopus", "wolf", "city", "bee", "mouse"]);
  });

  it("shows a matching subject for at least 16 of 20 clear scenes", () => {
    const chosen = SCENES.map((s) => ({ scene: s.narration, ...pickSceneSubjects(s.narration, s.prompt), expected: s.expected }));
    const report = chosen.map((c) => `${c.expected.includes(c.main ?? "") ? "ok  " : "MISS"} ${c.main ?? "(abstract)"} + [${c.related.join(", ")}] ← ${c.scene}`);
    // The list of scenes and chosen pictures, printed for whoever reads the test output.
    console.info(`offline illustration choices:\n${report.join("\n")}`);
    const matches = chosen.filter((c) => c.expected.includes(c.main ?? "")).length;
    expect(matches, report.join("\n")).toBeGreaterThanOrEqual(16);
  });

  it("draws a drink with alcohol only when the scene speaks of one (no beer mug beside the morning coffee)", () => {
    const coffee = pickSceneSubjects("Welcome to “Morning Coffee”.", 'welcome, morning, coffee — scene 1 of "Morning Coffee", documentary-style photo');
    expect(coffee.main).toBe("hot-beverage");
    expect(coffee.related.length).toBeGreaterThan(0);
    for (const name of ["beer-mug", "clinking-beer-mugs", "tropical-drink", "wine-glass", "cocktail-glass", "tumbler-glass", "sake"])
      expect(coffee.related).not.toContain(name);
    expect(pickSceneSubjects("Beer is brewed from barley, hops and water.", "beer, barley, hops").main).toBe("beer-mug");
  });

  it("reads 'pump' as the verb it mostly is in narration (no fuel pump for an octopus's hearts)", () => {
    const hearts = pickSceneSubjects("Three hearts? Really? An octopus has three hearts that pump blue blood.", "octopus, hearts, blood");
    expect(hearts.main).toBe("octopus");
    expect([hearts.main, ...hearts.related]).not.toContain("fuel-pump");
    expect(pickSceneSubjects("Fuel prices rose again this week.", "fuel, gas station").main).toBe("fuel-pump");
  });

  it("ignores the style words of prompts (no camera for 'photograph', no bulb for 'light')", () => {
    const { main, related } = pickSceneSubjects("", "cinematic photograph, soft natural light, wide 16:9 frame, watercolor illustration, golden hour");
    expect([main, ...related]).toEqual([undefined]);
  });

  it("falls back to an abstract scene when no word has a picture", async () => {
    const art = planSceneArt("Notwithstanding the aforementioned considerations, epistemology remains.", "epistemology, considerations", "16:9", "s");
    expect(art.subjects.main).toBeUndefined();
    expect(art.layers).toHaveLength(2);
  });

  it("never draws text: no SVG layer has a text element, in either format, subject or not", () => {
    for (const aspect of ["16:9", "9:16"] as const) {
      for (const s of [...SCENES.slice(0, 5), { narration: "Notwithstanding epistemology.", prompt: "epistemology" }]) {
        for (const layer of planSceneArt(s.narration, s.prompt, aspect, "seed").layers) {
          expect(layer.svg).not.toMatch(/<(text|tspan|textPath|foreignObject)\b/i);
          expect(layer.svg).not.toContain("Ocean Minds");
        }
      }
    }
  });

  it("varies layout and palette from scene to scene", () => {
    const plans = SCENES.map((s, i) => planSceneArt(s.narration, s.prompt, "9:16", `project:${i}`));
    expect(new Set(plans.map((p) => p.layout)).size).toBeGreaterThanOrEqual(2);
    expect(new Set(plans.map((p) => p.palette)).size).toBeGreaterThanOrEqual(3);
  });

  it("renders the octopus scene at both sizes with the octopus large and colourful", async () => {
    for (const [aspect, width, height] of [["16:9", 1920, 1080], ["9:16", 1080, 1920]] as const) {
      const r = await renderSceneImage(SCENES[0]!.prompt, aspect, "s", SCENES[0]!.narration);
      expect(r.art.subjects.main).toBe("octopus");
      const meta = await sharp(r.image).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(["png", width, height]);
      const main = r.art.layers.at(-1)!;
      // the main subject covers well over a third of the short side
      expect(Number(/width="(\d+)"/.exec(main.svg)![1])).toBeGreaterThan(Math.min(width, height) * 0.55);
    }
  }, 60_000);
});

/** A 5-minute 16:9 video's 20 scenes as the offline writer and splitter make them (811 words, as issue 38 measured). */
function offlineStoryboard(title: string, topic: string) {
  const chunks = planChunks(811).map((targetWords, chunkIndex, all) =>
    writeOfflineChunk({ title, topic, chunkIndex, totalChunks: all.length, targetWords, seed: "long-video" }),
  );
  return offlineScenes(chunks.join("\n\n"), title, "16:9", 20, "long-video").map((s) => ({ narration: s.voiceoverText, prompt: s.imagePrompt }));
}

describe("offline illustrations across a storyboard: each scene leads with its own subject (decision 142)", () => {
  const VIDEOS = [
    ["Secrets of the Coral Reef", "How coral reefs live and grow", "coral"],
    ["Morning Coffee", "the ritual of coffee", "hot-beverage"],
    ["How Octopuses Think", "octopus intelligence", "octopus"],
  ] as const;

  for (const [title, topic, titleSubject] of VIDEOS) {
    it(`"${title}": neighbours differ, no scene centres the title's ${titleSubject}, which recurs at the side`, () => {
      const scenes = offlineStoryboard(title, topic);
      expect(scenes).toHaveLength(20);
      const plan = pickStoryboardSubjects(title, scenes);
      console.info(`${title}:\n${plan.map((p, i) => `${i + 1}. ${p.main} (${p.from}) + [${p.related.join(", ")}], motif ${p.motif}`).join("\n")}`);
      // What the scenes would lead with if each were drawn alone: the title's subject, in most of them.
      const alone = scenes.map((s) => pickSceneSubjects(s.narration, s.prompt).main);
      expect(alone.filter((m) => m === titleSubject).length).toBeGreaterThanOrEqual(6);

      for (let i = 1; i < plan.length; i++) expect(plan[i]!.main, `scenes ${i} and ${i + 1}`).not.toBe(plan[i - 1]!.main);
      for (const [i, p] of plan.entries()) {
        expect(p.main, `scene ${i + 1}`).toBeDefined();
        expect(p.main, `scene ${i + 1}`).not.toBe(titleSubject);
        expect(p.motif).toBe(titleSubject);
        expect(p.related).not.toContain(titleSubject);
        // A scene whose words name a picture other than the title's leads with one of those.
        const titleNames = sceneSubjectNames("", title);
        const ownNames = sceneSubjectNames(scenes[i]!.narration, scenes[i]!.prompt).filter((n) => !titleNames.includes(n));
        if (p.from === "scene") expect(ownNames, `scene ${i + 1}`).toContain(p.main);
        else expect(ownNames.filter((n) => n !== plan[i - 1]?.main), `scene ${i + 1} has words of its own`).toEqual([]);
      }
      // Most scenes speak of something of their own; the rest draw from the title's world, not the title.
      expect(plan.filter((p) => p.from === "scene").length).toBeGreaterThanOrEqual(12);
      expect(new Set(plan.map((p) => p.main)).size).toBeGreaterThanOrEqual(12);
    });
  }

  it("takes the next-best subject when a neighbour already leads with the best one", () => {
    const scenes = [
      { narration: "The guitar was tuned before the show.", prompt: "guitar, show" },
      { narration: "A guitar and a violin played together.", prompt: "guitar, violin" },
      { narration: "Only the guitar was left on the stage.", prompt: "guitar, stage" },
    ];
    const plan = pickStoryboardSubjects("Songs of the Road", scenes);
    expect(plan.map((p) => p.main)).toEqual(["guitar", "violin", "guitar"]);
  });

  it("repeats a subject only when both neighbours' words name it and nothing else, and the title has no world to turn to", () => {
    const scenes = [
      { narration: "Penguins huddle against the wind.", prompt: "penguins" },
      { narration: "Penguins again, all of them.", prompt: "penguins" },
    ];
    expect(pickStoryboardSubjects("Notwithstanding epistemology", scenes).map((p) => p.main)).toEqual(["penguin", "penguin"]);
    const underSea = pickStoryboardSubjects("Under the Sea with an Octopus", scenes);
    expect(underSea.map((p) => p.main)).toEqual(["penguin", underSea[1]!.main]);
    expect([undefined, "penguin", "octopus"]).not.toContain(underSea[1]!.main);
    expect(underSea[1]!.from).toBe("title-world");
  });

  it("never leads with a plain shape (a black square reads as a placeholder)", () => {
    expect(pickSceneSubjects("It was fair and square, a circle of friends.", "square, circle").main ?? "none").not.toMatch(/square|circle/);
  });

  it("draws the motif small at the side and the scene's subject large in the middle", () => {
    const scenes = offlineStoryboard("Secrets of the Coral Reef", "How coral reefs live and grow");
    const plan = pickStoryboardSubjects("Secrets of the Coral Reef", scenes);
    const art = planSceneArt(scenes[1]!.narration, scenes[1]!.prompt, "16:9", "s", plan[1]);
    const sizes = art.layers.slice(2).map((l) => ({ svg: l.svg, size: Number(/width="(\d+)"/.exec(l.svg)![1]) }));
    const coral = sizes.filter((l) => l.svg === iconSvg("coral", l.size));
    expect(coral).toHaveLength(1);
    expect(coral[0]!.size).toBeLessThan(1080 * 0.3);
    expect(sizes.at(-1)!.svg).toBe(iconSvg(plan[1]!.main!, sizes.at(-1)!.size));
    expect(sizes.at(-1)!.size).toBeGreaterThan(1080 * 0.55);
  });
});
