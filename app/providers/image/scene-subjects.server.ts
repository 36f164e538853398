// Which pictures a scene is about: its subjects (nouns, named things) read from the narration and the image
// prompt, matched against the Fluent Emoji Flat set (MIT, shipped as @iconify-json/fluent-emoji-flat) with the
// keywords of emojilib (MIT). Pure lookups, loaded once per process; the composition is offline-scene.server.ts.
import { createRequire } from "node:module";
import pluralize from "pluralize";

type IconifyIcon = { body: string; width?: number; height?: number };
type IconifySet = {
  icons: Record<string, IconifyIcon>;
  aliases?: Record<string, { parent: string }>;
  width?: number;
  height?: number;
};

export type SceneIcon = { name: string; svg: string };
export type SceneSubjects = {
  /** the illustration's main subject, drawn large; undefined when no word of the scene has a picture */
  main?: string;
  /** up to three related subjects, drawn smaller */
  related: string[];
  /** the scene's words that were matched, in the order they count */
  words: string[];
};

const require = createRequire(import.meta.url);

// Words that never name a subject: grammar, and the style/framing vocabulary image prompts carry
// ("cinematic photograph, soft natural light, wide 16:9 frame" would otherwise pick a camera and a light bulb).
const IGNORED = new Set(
  (
    "a about above across after again against all almost along also although always am among an and another any are around as at away " +
    "back be because been before behind being below between beyond both but by can could did do does doing done down during each " +
    "either enough even ever every few for from further had has have having he her here hers him his how however i if in inside " +
    "into is it its itself just least less let like little many may me might more most much must my near never next no nor not now " +
    "of off often on once one only onto or other our out over own per perhaps quite rather really same she should since so some such " +
    "than that the their them then there these they this those though through throughout thus to together too toward towards under " +
    "until up upon us very was we well were what when where whether which while who whom whose why will with within without would " +
    "yet you your yours first second third last new old big small great good best better most least many more lot lots kind kinds " +
    "way ways thing things part parts time times day days year years people person someone something anything everything nothing " +
    "make makes made making take takes took get gets got go goes went come comes came see sees saw seen know knows knew look looks " +
    "show shows showing tell tells said say says call called use uses used using find finds found keep keeps kept give gives gave " +
    "scene scenes video videos episode story stories guide tip tips fact facts welcome today tomorrow hello hi let's lets watch " +
    "cinematic photograph photo photography picture image shot shots frame framing wide vertical horizontal detailed digital " +
    "painting illustration minimalist clean watercolor watercolour texture textures gentle soft natural light lighting warm tone " +
    "tones documentary style shallow depth field establishing golden hour render realistic hyperrealistic 4k 8k hd closeup close " +
    "view background foreground composition portrait landscape-format colorful vibrant beautiful stunning amazing incredible " +
    "interesting important simple easy quick real true whole full short long high low different same special certain own able " +
    "curious wrap wraps wrapped place places thank thanks " +
    // verbs of narration that name an emoji by accident ("hearts pump blood" drew a fuel pump; "fuel" still finds it)
    "pump pumps pumped pumping " +
    "face faces button sign symbol mark left right crossed cross pointing direction directions hand hands " +
    "zero two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen " +
    "nineteen twenty thirty forty fifty sixty seventy eighty ninety hundred hundreds thousand thousands million millions billion"
  ).split(" "),
);

// Emoji we never draw: flags, letters, keycaps, clock faces, arrows, hand gestures, UI symbols.
// Also pictures with writing in them (the white flower's "well done" in Japanese, the ideographs), and plain
// shapes (a black square or a red circle drawn large reads as a placeholder, not a subject).
const EXCLUDED_NAME =
  /^(flag-|keycap-|regional-indicator|input-|japanese-|white-flower$|name-badge$)|ideograph|-button\b|button-|oclock|-thirty$|arrow|hand-with|-hand$|^hundred-points$|-mark$|^(black|white|blue|brown|green|orange|purple|red|yellow|hollow-red|large-blue|large-orange|small-blue|small-orange)-(large-|medium-|medium-small-|small-)?(circle|square|diamond|triangle)(-pointed-down)?$|^diamond-with-a-dot$/;

/**
 * Drinks with alcohol are drawn only when the scene speaks of one: otherwise "coffee" borrowed a beer mug and a
 * cocktail through the keywords "mug" and "beverage". The pictures are those emojilib tags with these words.
 */
const ALCOHOL_TAGS = new Set(["alcohol", "booze", "drunk"]);
const ALCOHOL_WORDS = new Set(["alcohol", "beer", "wine", "cocktail", "booze", "sake", "champagne", "whisky", "whiskey", "liquor", "spirit", "pub", "brewery", "vineyard"]);

/**
 * Plain words whose best picture the names alone do not find ("coffee" is a hot beverage; "flower" is
 * everywhere in the set): the picture a reader expects, checked against the set when the index is built.
 */
const CURATED: Record<string, string> = {
  flower: "tulip", tree: "deciduous-tree", forest: "evergreen-tree", coffee: "hot-beverage", tea: "teacup-without-handle",
  car: "automobile", water: "droplet", ocean: "water-wave", sea: "water-wave", wave: "water-wave", sun: "sun", rain: "cloud-with-rain",
  music: "musical-notes", song: "musical-notes", money: "money-bag", city: "cityscape", home: "house", house: "house",
  school: "school", phone: "mobile-phone", computer: "laptop", internet: "globe-with-meridians", world: "globe-showing-europe-africa",
  earth: "globe-showing-europe-africa", planet: "ringed-planet", space: "milky-way", star: "glowing-star", heart: "red-heart",
  love: "red-heart", idea: "light-bulb", fire: "fire", food: "fork-and-knife-with-plate", bird: "bird", fish: "tropical-fish",
  dog: "dog", cat: "cat", horse: "horse", mountain: "snow-capped-mountain", island: "desert-island", beach: "beach-with-umbrella",
  moon: "crescent-moon", sky: "cloud", weather: "sun-behind-cloud", time: "hourglass-not-done", science: "microscope",
  medicine: "pill", health: "stethoscope", doctor: "stethoscope", sport: "soccer-ball", football: "soccer-ball", game: "video-game",
  book: "books", history: "classical-building", art: "artist-palette", camera: "camera", energy: "high-voltage", electricity: "high-voltage",
  plant: "seedling", garden: "potted-plant", farm: "sheaf-of-rice", bread: "bread", cake: "birthday-cake", ship: "ship", boat: "sailboat",
  plane: "airplane", travel: "airplane", train: "locomotive", bike: "bicycle", brain: "brain", robot: "robot", ai: "robot",
  observation: "magnifying-glass-tilted-left", evidence: "magnifying-glass-tilted-right", research: "microscope",
};
/** Skin-tone variants of a picture that has a default one. */
const SKIN_TONE = /-(light|medium-light|medium|medium-dark|dark)$/;

type Candidate = { name: string; strength: number };
type Index = {
  set: IconifySet;
  byWord: Map<string, Candidate[]>;
  keywordsOf: Map<string, string[]>;
  /** pictures of drinks with alcohol, drawn only when the scene says so */
  alcohol: Set<string>;
};

let index: Index | undefined;

/** The singular, lower-case form a word is indexed and looked up by ("octopuses" → "octopus"). */
export function normalizeWord(word: string): string {
  const lower = word.toLowerCase().replace(/[’']s$/, "").replace(/[^a-z0-9-]/g, "");
  if (lower.length < 3) return lower;
  return pluralize.singular(lower);
}

/** A word that never names a subject: grammar, or the style and framing vocabulary of image prompts. */
export function isNoiseWord(word: string): boolean {
  const normal = normalizeWord(word);
  return normal.length < 3 || IGNORED.has(normal);
}

function hexOf(emoji: string): string {
  return [...emoji].map((c) => c.codePointAt(0)!.toString(16)).join("-");
}

function loadIndex(): Index {
  if (index) return index;
  const set = require("@iconify-json/fluent-emoji-flat/icons.json") as IconifySet;
  const chars = require("@iconify-json/fluent-emoji-flat/chars.json") as Record<string, string>;
  const emojilib = require("emojilib") as Record<string, string[]>;
  const names = new Set(Object.keys(set.icons));
  const usable = (name: string) =>
    names.has(name) && !EXCLUDED_NAME.test(name) && !(SKIN_TONE.test(name) && names.has(name.replace(SKIN_TONE, "-default")));

  const keywordsOf = new Map<string, string[]>();
  for (const [emoji, keywords] of Object.entries(emojilib)) {
    const hex = hexOf(emoji);
    const name = chars[hex] ?? chars[hex.replace(/-fe0f/g, "")] ?? [keywords[0]!.replace(/_/g, "-")].find((n) => names.has(n));
    if (name && usable(name)) keywordsOf.set(name, keywords.slice(1).flatMap((k) => k.split(/[_\s]+/)));
  }

  const byWord = new Map<string, Candidate[]>();
  const add = (word: string, name: string, strength: number) => {
    const key = normalizeWord(word);
    if (key.length < 3 || IGNORED.has(key)) return;
    const list = byWord.get(key) ?? [];
    const existing = list.find((c) => c.name === name);
    if (existing) existing.strength = Math.max(existing.strength, strength);
    else list.push({ name, strength });
    byWord.set(key, list);
  };
  for (const name of names) {
    if (!usable(name)) continue;
    const plain = name.replace(/-default$/, "").replace(/-face$/, "");
    const parts = plain.split("-");
    // The name says most: "octopus" is the octopus. In a longer name its head noun ("whale" in "spouting-whale",
    // "cup" in "cup-with-straw") names the picture; the other words ("blue" in "blue-book") only describe it.
    const head = /-(with|of|in|on|at|and)-/.test(plain) ? 0 : parts.length - 1;
    if (parts.length === 1) add(parts[0]!, name, 5);
    else parts.forEach((part, i) => add(part, name, i === head ? 3.5 : 2));
    for (const keyword of keywordsOf.get(name) ?? []) add(keyword, name, 1);
  }
  for (const [word, name] of Object.entries(CURATED)) if (usable(name)) add(word, name, 5);
  // For each word, its best picture first: strongest, then the plainest (shortest) name.
  for (const list of byWord.values()) list.sort((a, b) => b.strength - a.strength || a.name.length - b.name.length || a.name.localeCompare(b.name));
  const alcohol = new Set([...keywordsOf].filter(([, keywords]) => keywords.some((k) => ALCOHOL_TAGS.has(k))).map(([name]) => name));
  index = { set, byWord, keywordsOf, alcohol };
  return index;
}

/** The words of a scene worth drawing, with how much each counts (prompt subjects first, then the narration). */
function weightedWords(narration: string, prompt: string): Map<string, number> {
  // Offline prompts read "subjects — scene N of "Title", style, framing": only the part before the dash names subjects.
  const subjectPart = prompt.split(/\s[—–-]\s/)[0] ?? prompt;
  const weights = new Map<string, number>();
  const addText = (text: string, weightAt: (i: number) => number) => {
    let i = 0;
    for (const raw of text.match(/[A-Za-z][A-Za-z'’-]*/g) ?? []) {
      for (const piece of raw.split("-")) {
        const word = normalizeWord(piece);
        if (word.length < 3 || IGNORED.has(word)) continue;
        weights.set(word, (weights.get(word) ?? 0) + weightAt(i++));
      }
    }
  };
  // A prompt lists its subjects most important first; a narration usually names its subject early.
  addText(subjectPart, (i) => Math.max(1, 2.5 - i * 0.5));
  addText(narration, (i) => 1 - Math.min(0.4, i / 50));
  return weights;
}

type Ranking = {
  /** the pictures the scene's words name, best first */
  ranked: string[];
  /** pictures named by a word of the scene itself (a name, not merely a keyword) */
  named: Set<string>;
  words: string[];
  drawable: (name: string) => boolean;
};

/** Every picture the scene's words point to, best first, with the words that were matched. */
function rankScene(narration: string, prompt: string): Ranking {
  const { byWord, alcohol } = loadIndex();
  const scores = new Map<string, { score: number; best: number }>();
  const matched: { word: string; weight: number }[] = [];
  const weighted = weightedWords(narration, prompt);
  const saysAlcohol = [...weighted.keys()].some((word) => ALCOHOL_WORDS.has(word));
  const drawable = (name: string) => saysAlcohol || !alcohol.has(name);
  for (const [word, weight] of weighted) {
    const candidates = byWord.get(word)?.filter((c) => drawable(c.name));
    if (!candidates?.length) continue;
    // A word that many pictures share ("animal", "water") says little about which one.
    const specificity = 1 / Math.log2(2 + candidates.filter((c) => c.strength >= 3).length / 4);
    const top = candidates[0]!;
    const value = weight * top.strength * specificity;
    const entry = scores.get(top.name) ?? { score: 0, best: 0 };
    entry.score += value;
    entry.best = Math.max(entry.best, top.strength);
    scores.set(top.name, entry);
    matched.push({ word, weight: value });
  }
  // Pictures named by a word of the scene beat those found only through a keyword.
  const ranked = [...scores.entries()]
    .filter(([, s]) => s.best >= 3 || s.score >= 1.2)
    .sort((a, b) => b[1].score - a[1].score || a[0].length - b[0].length || a[0].localeCompare(b[0]))
    .map(([name]) => name);
  const named = new Set(ranked.filter((name) => scores.get(name)!.best >= 3));
  return { ranked, named, words: matched.sort((a, b) => b.weight - a.weight).map((m) => m.word), drawable };
}

/** The subjects drawn around a chosen main one: others the scene names, topped up from the main's own keywords. */
function subjectsAround(ranking: Ranking, main: string, maxRelated: number, exclude: ReadonlySet<string> = new Set()): SceneSubjects {
  const { byWord, keywordsOf } = loadIndex();
  // Related subjects must be named by a word of the scene, not merely share a keyword with it.
  // One of a picture's variants (a magnifying glass tilted left beside one tilted right says nothing new).
  const base = (name: string) => name.replace(/-tilted-(left|right)$|-(left|right)$/, "");
  const other = (name: string) => base(name) !== base(main) && !exclude.has(name);
  const related = ranking.ranked.filter((name) => name !== main && ranking.named.has(name) && other(name)).slice(0, maxRelated);
  // Too few related subjects in the words: borrow from the main subject's own keywords (octopus → sea, beach).
  for (const keyword of keywordsOf.get(main) ?? []) {
    if (related.length >= Math.min(2, maxRelated)) break;
    const candidates = byWord.get(normalizeWord(keyword)) ?? [];
    const extra = candidates.find((c) => c.strength >= 3 && c.name !== main && !related.includes(c.name) && other(c.name) && ranking.drawable(c.name));
    if (extra) related.push(extra.name);
  }
  return { main, related, words: ranking.words };
}

/** Every picture the scene's own words point to, best first (its candidates for the main subject). */
export function sceneSubjectNames(narration: string, prompt: string): string[] {
  return rankScene(narration, prompt).ranked;
}

/** The scene's main subject and a few related ones, or no main subject when nothing in it has a picture. */
export function pickSceneSubjects(narration: string, prompt: string, maxRelated = 3): SceneSubjects {
  const ranking = rankScene(narration, prompt);
  const main = ranking.ranked[0];
  if (!main) return { main: undefined, related: [], words: ranking.words };
  return subjectsAround(ranking, main, maxRelated);
}

export type StoryboardScene = { narration: string; prompt: string };
export type StoryboardSubjects = SceneSubjects & {
  /** the title's subject, drawn small at the side of every scene whose main subject it is not */
  motif?: string;
  /** where the main subject came from: the scene's own words, the world of the title's subject, or the title */
  from: "scene" | "title-world" | "title" | "none";
};

/**
 * Pictures from the world of the title's subject, for scenes that name nothing but the title: those whose
 * keywords share one with the subject's (coral: ocean, sea, reef → whale, dolphin, tropical fish, shell...).
 */
function worldOf(motif: string, drawable: (name: string) => boolean): string[] {
  const { keywordsOf } = loadIndex();
  const own = new Set(keywordsOf.get(motif) ?? []);
  if (!own.size) return [];
  return [...keywordsOf]
    .filter(([name]) => name !== motif && drawable(name))
    .map(([name, keywords]) => ({ name, shared: new Set(keywords.filter((k) => own.has(k))).size }))
    .filter((w) => w.shared > 0)
    .sort((a, b) => b.shared - a.shared || a.name.length - b.name.length || a.name.localeCompare(b.name))
    // one of a man-, woman- and person- variant (a surfer, not three)
    .filter((w, i, all) => all.findIndex((o) => o.name.replace(/^(man|woman|person)-/, "") === w.name.replace(/^(man|woman|person)-/, "")) === i)
    .slice(0, 12)
    .map((w) => w.name);
}

const storyboardPlans = new Map<string, StoryboardSubjects[]>();

/**
 * The subjects of every scene of a storyboard, in order (docs/decisions/142). Each scene leads with its own
 * subject: the best picture its words name that is not the title's. The title's subject is a motif drawn small
 * at the side. A scene whose main subject would repeat its neighbour's takes its next-best subject; a scene that
 * names nothing but the title draws a picture from the title's world (a coral video: fish, a whale, a shell),
 * a different one from its neighbour. Pure and deterministic; the last few storyboards are remembered, so the
 * images of one storyboard compute it once.
 */
export function pickStoryboardSubjects(title: string, scenes: readonly StoryboardScene[]): StoryboardSubjects[] {
  const key = JSON.stringify([title, scenes.map((s) => [s.narration, s.prompt])]);
  const known = storyboardPlans.get(key);
  if (known) return known;
  const titleRanking = rankScene("", title);
  const motif = titleRanking.ranked[0];
  const titleNames = new Set(titleRanking.ranked);
  const plan: StoryboardSubjects[] = [];
  let previous: string | undefined;
  for (const [i, scene] of scenes.entries()) {
    const ranking = rankScene(scene.narration, scene.prompt);
    const own = ranking.ranked.filter((name) => !titleNames.has(name));
    // Its own best subject, unless its neighbour already leads with that one.
    let main = own.find((name) => name !== previous);
    let from: StoryboardSubjects["from"] = "scene";
    if (!main && motif) {
      // Nothing of its own (or only its neighbour's): a picture of the title's world, turning from scene to scene.
      const world = worldOf(motif, ranking.drawable);
      const turned = [...world.slice(i % world.length), ...world.slice(0, i % world.length)];
      main = turned.find((name) => name !== previous);
      if (main) {
        // Its companions come from the same world (a blowfish with a fish, not with a knife and fork).
        const related = turned.filter((name) => name !== main && name !== previous).slice(0, 2);
        plan.push({ main, related, words: ranking.words, motif, from: "title-world" });
        previous = main;
        continue;
      }
      if (ranking.ranked.includes(motif)) [main, from] = [motif, "title"];
    }
    // Both neighbours name this one and nothing else of their own, and the title has no world to draw from.
    if (!main && own.length) main = own[0];
    if (!main) {
      plan.push({ main: undefined, related: [], words: ranking.words, motif, from: "none" });
      previous = undefined;
      continue;
    }
    const showMotif = motif && motif !== main ? motif : undefined;
    plan.push({ ...subjectsAround(ranking, main, showMotif ? 2 : 3, titleNames), motif: showMotif, from });
    previous = main;
  }
  storyboardPlans.set(key, plan);
  if (storyboardPlans.size > 4) storyboardPlans.delete(storyboardPlans.keys().next().value!);
  return plan;
}

/** A picture of the set as a standalone SVG document of the given pixel size (no text element, ever). */
export function iconSvg(name: string, size: number): string {
  const { set } = loadIndex();
  const icon = set.icons[name] ?? set.icons[set.aliases?.[name]?.parent ?? ""];
  if (!icon) throw new Error(`No illustration named ${name}`);
  const w = icon.width ?? set.width ?? 16;
  const h = icon.height ?? set.height ?? 16;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 ${w} ${h}">${icon.body}</svg>`;
}

/** The keywords of a picture (for the palette: an octopus is a sea scene). */
export function iconKeywords(name: string): string[] {
  return loadIndex().keywordsOf.get(name) ?? [];
}
