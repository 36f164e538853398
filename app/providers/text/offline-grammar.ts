// The offline writer's grammar: sentence templates and the phrases that fill them.
// A body sentence is a template plus one angle, one observation and one detail. Sentences are numbered, and a
// number maps to its (template, angle, observation, detail) tuple through a bijection, so distinct numbers can
// never give the same sentence: that is how a 60-minute script avoids repeating itself verbatim.

/** Noun phrases about the subject; {K} is a keyword of the topic. */
export const ANGLES = [
  "the early history of {K}",
  "the everyday side of {K}",
  "the science behind {K}",
  "the economics of {K}",
  "the most common myth about {K}",
  "the cast of people who shaped {K}",
  "the toolkit people use for {K}",
  "the future of {K}",
  "the classic beginner mistake with {K}",
  "the fine detail of {K}",
  "the cultural meaning of {K}",
  "the data behind {K}",
  "the risk that comes with {K}",
  "the real value of {K}",
  "the daily routine behind {K}",
  "the local flavour of {K}",
  "the way experts approach {K}",
  "the first steps into {K}",
  "the long-term impact of {K}",
  "the debate around {K}",
  "the quiet progress in {K}",
  "the environmental side of {K}",
  "the practical cost of {K}",
  "the learning curve of {K}",
  "the best-known example of {K}",
  "the overlooked story of {K}",
  "the basic vocabulary of {K}",
  "the design thinking behind {K}",
  "the role of timing in {K}",
  "the role of patience in {K}",
  "the community around {K}",
  "the first question people ask about {K}",
  "the biggest turning point in {K}",
  "the simplest rule of {K}",
  "the balance of trade-offs in {K}",
  "the research on {K}",
] as const;

/** Verb phrases that say something about an angle. */
export const OBSERVATIONS = [
  "often surprises people who look closely",
  "rewards anyone willing to slow down",
  "shapes the choices people make every day",
  "is easier to grasp than it first seems",
  "has changed more in recent years than most expect",
  "connects to ideas far beyond it",
  "depends on a few simple principles",
  "tends to be misunderstood",
  "deserves more attention than it gets",
  "reveals a pattern worth remembering",
  "becomes clearer with a concrete example",
  "matters more than its reputation suggests",
  "keeps evolving as new evidence appears",
  "explains a lot of what we see today",
  "carries lessons for beginners and experts alike",
  "is where many good decisions begin",
  "can be learned one step at a time",
  "holds a few genuine surprises",
  "is often the deciding factor",
  "raises questions that are still open",
  "makes the bigger picture easier to see",
  "was shaped by many small experiments",
  "is a good place to build intuition",
  "looks different depending on where you stand",
  "turns abstract ideas into practical ones",
  "invites a closer look",
  "rarely follows a straight line",
  "is full of trade-offs worth naming",
  "grows more interesting the deeper you go",
  "is more human than technical",
  "tells us something about ourselves",
  "works best when it is kept simple",
  "is built on careful observation",
  "shows why context matters",
  "offers an honest measure of progress",
  "sets the stage for everything that follows",
] as const;

/** Clauses that extend an observation with an image or a consequence. */
export const DETAILS = [
  "much like a map that gets redrawn with every journey",
  "in the same way a garden responds to steady care",
  "the way a good story reveals itself one chapter at a time",
  "as anyone who has tried it for a week can tell you",
  "which is why it keeps coming up in conversation",
  "and that is worth keeping in mind as we go on",
  "especially when you compare one decade with the next",
  "even if the headlines rarely mention it",
  "a point that experienced practitioners often repeat",
  "and small changes here can have large effects",
  "which makes careful observation so valuable",
  "so it pays to start with the basics",
  "and the details are where it gets interesting",
  "as a quick look at real examples shows",
  "which is why so many people find it fascinating",
  "though the reasons are not always obvious",
  "and understanding it saves a great deal of time",
  "much as a compass helps long before the destination appears",
  "and it often begins with a single question",
  "which is something we will come back to",
  "so let us look at it with fresh eyes",
  "and that changes how the whole picture looks",
  "whether you are just curious or deeply involved",
  "and every example adds another piece to the puzzle",
  "and that simple idea goes a long way",
  "which helps explain the choices people make",
  "a lesson that applies well beyond this subject",
  "and it is easier to see once you know where to look",
  "as the evidence from many places suggests",
  "and there is more to it than meets the eye",
] as const;

/** Body templates: every one uses {A}, {B} and {C} once; {S} names the subject. {A^} is capitalised. */
export const BODY_TEMPLATES = [
  "{A^} {B}, {C}.",
  "When it comes to {S}, {A} {B}, {C}.",
  "It is worth noticing that {A} {B}, {C}.",
  "Many people find that {A} {B}, {C}.",
  "Here is a simple truth: {A} {B}, {C}.",
  "Looking at {S} more closely, {A} {B}, {C}.",
  "In practice, {A} {B}, {C}.",
  "As we go on, you will see that {A} {B}, {C}.",
  "Think about it for a moment: {A} {B}, {C}.",
  "One thing stands out about {S}: {A} {B}, {C}.",
  "Experts often point out that {A} {B}, {C}.",
  "Remember this: {A} {B}, {C}.",
  "Perhaps surprisingly, {A} {B}, {C}.",
  "At first glance {S} seems simple, yet {A} {B}, {C}.",
  "Put simply, {A} {B}, {C}.",
  "All over the world, {A} {B}, {C}.",
] as const;

/** Short sentences fill the last few words of a chunk so it lands close to its target. */
export const SHORT_TEMPLATE = "{A^} {B}.";

export const ORDINALS = [
  "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
  "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty",
];

export function ordinal(n: number): string {
  return ORDINALS[n - 1] ?? String(n);
}

export const BODY_SPACE = BODY_TEMPLATES.length * ANGLES.length * OBSERVATIONS.length * DETAILS.length;
export const SHORT_SPACE = ANGLES.length * OBSERVATIONS.length;

// Multipliers coprime with their space (which factors into 2, 3 and 5), so i -> i*M+offset is a bijection.
// Near 0.618 of the space, so consecutive sentences differ in every part, not only in the template.
const BODY_SCATTER = 384_443;
const SHORT_SCATTER = 799;

export type BodyParts = { template: number; angle: number; observation: number; detail: number };

/** The n-th body sentence's parts under a seed offset; distinct n below BODY_SPACE give distinct parts. */
export function bodyParts(n: number, offset: number): BodyParts {
  let i = (((n % BODY_SPACE) * BODY_SCATTER + offset) % BODY_SPACE + BODY_SPACE) % BODY_SPACE;
  const template = i % BODY_TEMPLATES.length;
  i = Math.floor(i / BODY_TEMPLATES.length);
  const angle = i % ANGLES.length;
  i = Math.floor(i / ANGLES.length);
  const observation = i % OBSERVATIONS.length;
  const detail = Math.floor(i / OBSERVATIONS.length);
  return { template, angle, observation, detail };
}

export function shortParts(n: number, offset: number): { angle: number; observation: number } {
  const i = (((n % SHORT_SPACE) * SHORT_SCATTER + offset) % SHORT_SPACE + SHORT_SPACE) % SHORT_SPACE;
  return { angle: i % ANGLES.length, observation: Math.floor(i / ANGLES.length) };
}
