// Small language helpers shared by the text providers: sentences, words and keywords.

export function countWords(text: string): number {
  const trimmed = text.trim();
  return trimmed ? trimmed.split(/\s+/).length : 0;
}

/** Splits text into sentences, keeping their punctuation. Paragraph breaks end a sentence too. */
export function splitSentences(text: string): string[] {
  return text
    .split(/\n\s*\n/)
    .flatMap((paragraph) => paragraph.replace(/\s+/g, " ").trim().split(/(?<!\b(?:e\.g|i\.e|Mr|Mrs|Ms|Dr|St|vs|etc)\.)(?<=[.!?…]["'”’)]?)\s+/))
    .map((s) => s.trim())
    .filter(Boolean);
}

const STOPWORDS = new Set(
  (
    "a about above after again against all also am an and any are as at be because been before being below between both but by can " +
    "could did do does doing down during each few for from further had has have having he her here hers herself him himself his how " +
    "i if in into is it its itself just let me more most my myself no nor not now of off on once only or other our ours ourselves out " +
    "over own same she should so some such than that the their theirs them themselves then there these they this those through to too " +
    "under until up very was we were what when where which while who whom why will with would you your yours yourself yourselves " +
    "video videos guide tips things thing ways best really make makes making made learn learning know knowing use using used help helps " +
    "get gets getting everything something anything nothing every many much part parts complete ultimate simple easy quick top step steps " +
    "explained explain explains introduction beginner beginners today tomorrow year years new like want need needs start started way"
  ).split(" "),
);

// Frequent verbs, which read badly where the grammar expects a noun ("the history of build").
const COMMON_VERBS = new Set(
  (
    "build builds built grow grows grew work works worked change changes changed communicate communicates create creates " +
    "become becomes came come comes take takes took give gives gave find finds found think thinks thought tell tells told " +
    "show shows showed move moves moved live lives lived believe believes bring brings happen happens write writes wrote " +
    "provide provides stand stands lose loses lost follow follows spend spends cook cooks cooking keep keeps kept begin begins " +
    "seem seems turn turns turned play plays played run runs save saves saved choose chooses chose affect affects improve " +
    "improves reduce reduces increase increases develop develops developed protect protects pollinate pollinates travel " +
    "travels visit visits explore explores discover discovers understand understands avoid avoids prepare prepares"
  ).split(" "),
);

const NOUN_ENDING = /(?:[^s]s|tion|sion|ment|ness|ity|ism|ship|ance|ence|ery|ogy|ics|ture|age|hood|dom|ist|ian)$/;

/** Content words of a text, the likeliest nouns and most frequent first (ties keep their first appearance). */
export function keywordsOf(text: string, limit = 8, preferred = ""): string[] {
  const counts = new Map<string, number>();
  for (const raw of text.toLowerCase().match(/[\p{L}\p{N}][\p{L}\p{N}'-]*/gu) ?? []) {
    const word = raw.replace(/'s$/, "").replace(/^-+|-+$/g, "");
    if (word.length < 4 || STOPWORDS.has(word) || /^\d+$/.test(word)) continue;
    counts.set(word, (counts.get(word) ?? 0) + 1);
  }
  const favoured = preferred.toLowerCase();
  return [...counts.entries()]
    .map(([word, count], index) => {
      let score = count;
      if (NOUN_ENDING.test(word)) score += 1.5;
      if (favoured && favoured.includes(word)) score += 2;
      if (COMMON_VERBS.has(word)) score -= 3;
      return { word, score, index };
    })
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .filter((e, i, all) => e.score > 0 || all.filter((x) => x.score > 0).length < 2 || i === 0)
    .slice(0, limit)
    .map((e) => e.word);
}

export function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * A sentence frame of the offline writer filled in: {A^} (capitalised) or {A}, {B} and {C}, each once, and the
 * language's own slots (English "{S}", French and Spanish "{deS}", with "de" contracted).
 */
export function fillFrame(template: string, parts: { A: string; B: string; C?: string }, slots: Record<string, string> = {}): string {
  let out = template.replace("{A^}", capitalize(parts.A)).replace("{A}", parts.A).replace("{B}", parts.B).replace("{C}", parts.C ?? "");
  for (const [slot, text] of Object.entries(slots)) out = out.replace(slot, text);
  return out;
}

/** Whitespace tidied, spaces before punctuation removed, sentence starts capitalised, a full stop at the end. */
export function tidySentence(sentence: string): string {
  let s = sentence.replace(/\s+/g, " ").replace(/\s+([,.;:!?])/g, "$1").trim();
  if (!s) return s;
  s = capitalize(s);
  if (!/[.!?…]["'”’)]?$/.test(s)) s += ".";
  return s;
}
