import { describe, expect, it } from "vitest";
import { END_CARD_SECONDS, hookFor, shortSeconds, ShortRequestSchema, suggestShortRuns } from "./short-runs";

const scene = (cellIndex: number, voiceoverText: string, audioDuration: number) => ({ cellIndex, voiceoverText, audioDuration });

describe("Short runs", () => {
  it("times a run as the renderers do: each voiceover and its pause, then the end card", () => {
    expect(shortSeconds([])).toBeCloseTo(END_CARD_SECONDS + 0.3, 1);
    expect(shortSeconds([10, 20])).toBeCloseTo(10.3 + 20.3 + END_CARD_SECONDS + 0.3, 1);
  });

  it("suggests runs that fit the limit, never overlapping, the question's run first", () => {
    const scenes = [
      scene(0, "Bees dance to share where flowers are.", 14),
      scene(1, "And they do it in the dark hive.", 14),
      scene(2, "Why do bees hum? Their wings beat two hundred times a second.", 14),
      scene(3, "It keeps the hive warm in winter.", 14),
      scene(4, "So the hum is a heater too.", 14),
      scene(5, "Most of all, bees never sleep alone.", 14),
    ];
    const runs = suggestShortRuns(scenes, 45);
    expect(runs.length).toBeGreaterThan(1);
    for (const run of runs) expect(run.seconds).toBeLessThanOrEqual(45);
    for (const [i, a] of runs.entries()) for (const b of runs.slice(i + 1)) expect(a.toScene < b.fromScene || b.toScene < a.fromScene).toBe(true);
    expect(runs.find((r) => r.fromScene === 2)).toMatchObject({ reason: "Opens with a question", hook: "Why do bees hum?" });
    // a run never opens on "And ..." or "So ..." when a better start is free
    expect(runs.map((r) => r.fromScene)).not.toContain(1);
  });

  it("suggests nothing when a scene has no voiceover yet or when no scene fits", () => {
    expect(suggestShortRuns([scene(0, "A.", 5), { cellIndex: 1, voiceoverText: "B.", audioDuration: null }])).toEqual([]);
    expect(suggestShortRuns([scene(0, "A long scene.", 120)], 60)).toEqual([]);
  });

  it("cuts a long opening sentence at a word for the hook", () => {
    const hook = hookFor("The honeybee colony can hold as many as sixty thousand workers in a single summer, all of them sisters. More follows.");
    expect(hook.length).toBeLessThanOrEqual(61);
    expect(hook.endsWith("…")).toBe(true);
    expect(hookFor("Short and sweet. Then more.")).toBe("Short and sweet.");
  });

  it("refuses a run the wrong way round, with the field named", () => {
    const parsed = ShortRequestSchema.safeParse({ fromScene: 3, toScene: 1 });
    expect(parsed.success).toBe(false);
    expect(parsed.error!.issues[0]!.path).toEqual(["toScene"]);
    expect(ShortRequestSchema.safeParse({ fromScene: 0, toScene: 1, maxSeconds: 600 }).success).toBe(false);
  });
});
