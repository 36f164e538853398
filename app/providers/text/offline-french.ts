// The offline writer's French grammar (issue 24): the same shape as the English one (offline-grammar.ts), with
// as many phrases in each list, so the same numbering gives distinct sentences. Keywords keep their article
// from the topic ("les abeilles", "la pollinisation"), so "de" and "à" contract as French wants ("des
// abeilles", "au miel").
import { fillFrame } from "./language";

/** Noun phrases (singular, so every observation agrees); {K} the keyword with its article, {deK} / {àK} contracted. */
export const ANGLES_FR = [
  "l'histoire {deK}",
  "le côté quotidien {deK}",
  "la science derrière {K}",
  "l'économie {deK}",
  "le mythe le plus répandu sur {K}",
  "le parcours de ceux qui ont façonné {K}",
  "la boîte à outils de ceux qui étudient {K}",
  "l'avenir {deK}",
  "l'erreur classique du débutant face {àK}",
  "le moindre détail {deK}",
  "la signification culturelle {deK}",
  "ce que disent les données sur {K}",
  "le risque qui accompagne {K}",
  "la vraie valeur {deK}",
  "la routine quotidienne derrière {K}",
  "la couleur locale {deK}",
  "la façon dont les experts abordent {K}",
  "le premier pas vers {K}",
  "l'impact à long terme {deK}",
  "le débat autour {deK}",
  "le progrès discret {deK}",
  "le côté environnemental {deK}",
  "le coût pratique {deK}",
  "la courbe d'apprentissage {deK}",
  "l'exemple le plus connu {deK}",
  "l'histoire méconnue {deK}",
  "le vocabulaire de base {deK}",
  "la réflexion qui sous-tend {K}",
  "le rythme propre {àK}",
  "la patience qu'exige {K}",
  "la communauté autour {deK}",
  "la première question que l'on se pose sur {K}",
  "le grand tournant {deK}",
  "la règle la plus simple {deK}",
  "le jeu d'équilibre qu'impose {K}",
  "la recherche sur {K}",
] as const;

/** Verb phrases in the third person singular, with no adjective that would agree with the angle. */
export const OBSERVATIONS_FR = [
  "surprend souvent ceux qui y regardent de près",
  "récompense quiconque prend le temps de ralentir",
  "influence des choix que l'on fait chaque jour",
  "se comprend plus facilement qu'il n'y paraît",
  "a plus changé ces dernières années qu'on ne le pense",
  "rejoint des idées qui vont bien au-delà",
  "repose sur quelques principes simples",
  "prête souvent à confusion",
  "mérite plus d'attention qu'on ne lui en accorde",
  "révèle un schéma qui vaut la peine d'être retenu",
  "s'éclaire avec un exemple concret",
  "compte plus que sa réputation ne le laisse croire",
  "continue d'évoluer à mesure que de nouvelles preuves apparaissent",
  "explique une bonne partie de ce que nous voyons aujourd'hui",
  "offre des leçons aux débutants comme aux experts",
  "est le point de départ de bien des bonnes décisions",
  "s'apprend une étape à la fois",
  "réserve quelques vraies surprises",
  "fait souvent toute la différence",
  "soulève des questions encore ouvertes",
  "aide à voir la situation dans son ensemble",
  "doit beaucoup à de nombreuses petites expériences",
  "est un bon terrain pour développer son intuition",
  "change selon le point de vue que l'on adopte",
  "transforme des idées abstraites en idées pratiques",
  "invite à regarder de plus près",
  "suit rarement une ligne droite",
  "comporte des compromis qu'il vaut la peine de nommer",
  "gagne en intérêt à mesure que l'on creuse",
  "tient plus de l'humain que de la technique",
  "nous apprend quelque chose sur nous-mêmes",
  "fonctionne mieux quand on reste simple",
  "repose sur une observation attentive",
  "montre pourquoi le contexte compte",
  "offre une mesure honnête du progrès",
  "prépare le terrain pour tout ce qui suit",
] as const;

export const DETAILS_FR = [
  "un peu comme une carte que l'on redessine à chaque voyage",
  "de la même façon qu'un jardin répond à des soins réguliers",
  "comme une bonne histoire qui se dévoile chapitre après chapitre",
  "comme le dira quiconque a essayé pendant une semaine",
  "et c'est pourquoi le sujet revient si souvent dans les conversations",
  "et il vaut la peine de s'en souvenir pour la suite",
  "surtout quand on compare une décennie à la suivante",
  "même si les gros titres en parlent rarement",
  "un point que les praticiens expérimentés répètent souvent",
  "et de petits changements peuvent y avoir de grands effets",
  "ce qui rend l'observation attentive si précieuse",
  "alors mieux vaut commencer par les bases",
  "et c'est dans les détails que tout devient intéressant",
  "comme le montre un rapide coup d'œil à des exemples réels",
  "ce qui explique pourquoi tant de gens s'y passionnent",
  "même si les raisons n'en sont pas toujours évidentes",
  "et le comprendre fait gagner beaucoup de temps",
  "tout comme une boussole aide bien avant que la destination n'apparaisse",
  "et tout commence souvent par une seule question",
  "et nous y reviendrons",
  "alors regardons-le d'un œil neuf",
  "et cela change toute la perspective",
  "que l'on soit simple curieux ou spécialiste",
  "et chaque exemple ajoute une pièce au puzzle",
  "et cette idée simple mène loin",
  "ce qui aide à comprendre les choix que font les gens",
  "une leçon qui dépasse largement ce sujet",
  "et c'est plus facile à voir quand on sait où regarder",
  "comme le suggèrent les observations faites en bien des endroits",
  "et il y a là plus qu'il n'y paraît",
] as const;

/** Every template uses {A}, {B} and {C} once; {deS} is "de" + the subject, contracted. {A^} is capitalised. */
export const BODY_TEMPLATES_FR = [
  "{A^} {B}, {C}.",
  "Quand on parle {deS}, {A} {B}, {C}.",
  "Il faut remarquer que {A} {B}, {C}.",
  "Beaucoup de gens découvrent que {A} {B}, {C}.",
  "Voici une vérité simple : {A} {B}, {C}.",
  "À y regarder de plus près, {A} {B}, {C}.",
  "En pratique, {A} {B}, {C}.",
  "Vous allez voir que {A} {B}, {C}.",
  "Pensez-y un instant : {A} {B}, {C}.",
  "Une chose frappe à propos {deS} : {A} {B}, {C}.",
  "Les spécialistes le soulignent souvent : {A} {B}, {C}.",
  "Retenez ceci : {A} {B}, {C}.",
  "Aussi surprenant que cela paraisse, {A} {B}, {C}.",
  "À première vue, tout paraît simple, et pourtant {A} {B}, {C}.",
  "En termes simples, {A} {B}, {C}.",
  "Partout dans le monde, {A} {B}, {C}.",
] as const;

export const NUMBERS_FR = [
  "un", "deux", "trois", "quatre", "cinq", "six", "sept", "huit", "neuf", "dix",
  "onze", "douze", "treize", "quatorze", "quinze", "seize", "dix-sept", "dix-huit", "dix-neuf", "vingt",
];

const VOWEL_START = /^[aeiouyhàâäéèêëîïôöùûü]/i;

/** "de" before a noun phrase: de + le -> du, de + les -> des, de + l'/la/ce kept, de + a vowel -> d'. */
export function de(phrase: string): string {
  if (/^le\s/i.test(phrase)) return `du ${phrase.slice(3)}`;
  if (/^les\s/i.test(phrase)) return `des ${phrase.slice(4)}`;
  if (/^(la\s|l'|l’|ce\s|cet\s|cette\s|ces\s|son\s|sa\s|ses\s|leur\s|leurs\s)/i.test(phrase)) return `de ${phrase}`;
  return VOWEL_START.test(phrase) ? `d'${phrase}` : `de ${phrase}`;
}

/** "à" before a noun phrase: à + le -> au, à + les -> aux. */
export function a(phrase: string): string {
  if (/^le\s/i.test(phrase)) return `au ${phrase.slice(3)}`;
  if (/^les\s/i.test(phrase)) return `aux ${phrase.slice(4)}`;
  return `à ${phrase}`;
}

const STOPWORDS_FR = new Set(
  (
    "alors aussi autre autres avant avec avoir bien cela celle celles celui cette ceux chaque comme comment dans depuis des donc dont " +
    "elle elles encore entre est était être fait faire font leur leurs lors mais même mêmes moins notre nous nos our par parce pas " +
    "peu peut plus pour pourquoi quand quel quelle quelles quels que qui quoi sans selon sera ses sont sous suis sur tant tous tout " +
    "toute toutes très une unes uns vers voici voilà votre vous vidéo vidéos guide conseils astuces choses chose façon façons " +
    "meilleur meilleurs meilleure simple simples facile rapide complet complète partie parties introduction débutant débutants " +
    "aujourd'hui demain année années nouveau nouvelle nouveaux nouvelles savoir apprendre découvrir comprendre tout"
  ).split(" "),
);

/** Verb forms ("fabriquent", "polliniser", "dansait") read badly where the grammar expects a noun. */
const VERB_ENDING_FR = /(?:[^m]ent|er|ir|ait|aient|ons|ez)$/;
const NOUN_ENDING_FR = /(?:tion|sion|ment|té|eur|euse|isme|iste|ure|ence|ance|age|ie|ette|elle|oire)s?$/;
const ARTICLE = /^(le|la|les|l'|l’|un|une|des|du|de la|de l'|de l’|d'|d’|aux|au)$/i;

/** The article for a bare noun, guessed: plural in -s/-x -> les; a vowel -> l'; usual feminine endings -> la; else le. */
function guessArticle(word: string): string {
  if (/[sx]$/.test(word)) return `les ${word}`;
  if (VOWEL_START.test(word)) return `l'${word}`;
  if (/(?:tion|sion|té|ure|ence|ance|ie|ette|elle|ée|ade|ise|ine)$/.test(word)) return `la ${word}`;
  return `le ${word}`;
}

/** The noun as the topic says it, with a definite article ("des abeilles" -> "les abeilles", "du miel" -> "le miel"). */
function withArticle(word: string, text: string): string {
  const escaped = word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const match = new RegExp(`(?:^|[\\s(«"])((?:de la|de l['’]|[a-zà-ÿ]+)\\s?|[ld]['’])${escaped}(?=$|[\\s,.;:!?)»"])`, "iu").exec(text);
  const article = match?.[1]?.trim().toLowerCase();
  if (!article || !ARTICLE.test(article.replace(/\s+$/, ""))) return guessArticle(word);
  if (/^(les|des|aux)$/.test(article)) return `les ${word}`;
  if (/^(le|du|au)$/.test(article)) return `le ${word}`;
  if (/^(la|de la)$/.test(article)) return `la ${word}`;
  if (/^(l['’]|de l['’]|d['’])$/.test(article)) return `l'${word}`;
  return guessArticle(word); // un, une: the gender is known, but "le"/"la" after "un"/"une" reads the same way
}

/** The topic's likeliest nouns with their article, most frequent first, favouring those the title repeats. */
export function frenchKeywords(text: string, limit = 4, preferred = ""): string[] {
  const counts = new Map<string, number>();
  const lower = text.toLowerCase();
  for (const raw of lower.match(/[\p{L}\p{N}][\p{L}\p{N}-]*/gu) ?? []) {
    if (raw.length < 4 || STOPWORDS_FR.has(raw) || /^\d+$/.test(raw)) continue;
    counts.set(raw, (counts.get(raw) ?? 0) + 1);
  }
  const favoured = preferred.toLowerCase();
  return [...counts.entries()]
    .map(([word, count], index) => ({ word, index, score: count + (NOUN_ENDING_FR.test(word) ? 1.5 : 0) + (favoured.includes(word) ? 2 : 0) - (VERB_ENDING_FR.test(word) ? 3 : 0) }))
    .filter((e, i, all) => e.score > 0 || all.filter((x) => x.score > 0).length < 2 || i === 0)
    .sort((x, y) => y.score - x.score || x.index - y.index)
    .slice(0, limit)
    .map((e) => withArticle(e.word, lower));
}

/** An angle with its keyword put in: {K}, {deK} and {àK}. */
export function fillAngleFr(angle: string, keyword: string): string {
  return angle.replace("{deK}", de(keyword)).replace("{àK}", a(keyword)).replace("{K}", keyword);
}

export function fillFr(template: string, parts: { A: string; B: string; C?: string; S?: string }): string {
  return fillFrame(template, parts, { "{deS}": de(parts.S ?? "ce sujet") });
}
