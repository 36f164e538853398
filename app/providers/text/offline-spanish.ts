// The offline writer's Spanish grammar: the same shape as the English one (offline-grammar.ts) and the French one
// (offline-french.ts), with as many phrases in each list, so the same numbering gives distinct sentences. Keywords
// keep their article from the topic ("las abejas", "la miel"), so "de" and "a" contract as Spanish wants ("del
// polen", "al polen"). Every angle is singular, so any observation agrees with it; no phrase agrees in gender.
import { fillFrame } from "./language";

/** Noun phrases (singular); {K} the keyword with its article, {deK} / {aK} with "de" / "a" contracted. */
export const ANGLES_ES = [
  "la historia {deK}",
  "el lado cotidiano {deK}",
  "la ciencia que hay detrás {deK}",
  "la economía {deK}",
  "el mito más extendido sobre {K}",
  "el camino de quienes dieron forma {aK}",
  "la caja de herramientas de quienes estudian {K}",
  "el futuro {deK}",
  "el error clásico del principiante ante {K}",
  "el más pequeño detalle {deK}",
  "el significado cultural {deK}",
  "lo que dicen los datos sobre {K}",
  "el riesgo que acompaña {aK}",
  "el verdadero valor {deK}",
  "la rutina diaria que hay detrás {deK}",
  "el color local {deK}",
  "la manera en que los expertos abordan {K}",
  "el primer paso hacia {K}",
  "el impacto a largo plazo {deK}",
  "el debate en torno {aK}",
  "el progreso silencioso {deK}",
  "el lado medioambiental {deK}",
  "el coste práctico {deK}",
  "la curva de aprendizaje {deK}",
  "el ejemplo más conocido {deK}",
  "la historia poco conocida {deK}",
  "el vocabulario básico {deK}",
  "la reflexión que sostiene {K}",
  "el ritmo propio {deK}",
  "la paciencia que exige {K}",
  "la comunidad en torno {aK}",
  "la primera pregunta que uno se hace sobre {K}",
  "el gran punto de inflexión {deK}",
  "la regla más sencilla {deK}",
  "el equilibrio que impone {K}",
  "la investigación sobre {K}",
] as const;

/** Verb phrases in the third person singular, with no adjective that would agree with the angle. */
export const OBSERVATIONS_ES = [
  "sorprende a menudo a quien se fija con atención",
  "recompensa a quien se toma el tiempo de ir despacio",
  "influye en decisiones que tomamos cada día",
  "se entiende con más facilidad de lo que parece",
  "ha cambiado en los últimos años más de lo que se cree",
  "conecta con ideas que van mucho más allá",
  "descansa sobre unos pocos principios sencillos",
  "se presta a menudo a confusión",
  "merece más atención de la que recibe",
  "revela un patrón que vale la pena recordar",
  "se aclara con un ejemplo concreto",
  "importa más de lo que su fama deja creer",
  "sigue evolucionando a medida que aparecen nuevas pruebas",
  "explica buena parte de lo que vemos hoy",
  "ofrece lecciones tanto a principiantes como a expertos",
  "es el punto de partida de muchas buenas decisiones",
  "se aprende paso a paso",
  "guarda algunas sorpresas de verdad",
  "marca a menudo toda la diferencia",
  "plantea preguntas que siguen abiertas",
  "ayuda a ver la situación en su conjunto",
  "debe mucho a numerosos pequeños experimentos",
  "es un buen terreno para desarrollar la intuición",
  "cambia según el punto de vista que se adopte",
  "convierte ideas abstractas en ideas prácticas",
  "invita a mirar más de cerca",
  "rara vez sigue una línea recta",
  "implica concesiones que conviene nombrar",
  "gana interés a medida que se profundiza",
  "tiene más de humano que de técnico",
  "nos enseña algo sobre nosotros mismos",
  "funciona mejor cuando se va a lo simple",
  "se apoya en una observación atenta",
  "muestra por qué el contexto importa",
  "ofrece una medida honesta del progreso",
  "prepara el terreno para todo lo que sigue",
] as const;

export const DETAILS_ES = [
  "un poco como un mapa que se vuelve a dibujar en cada viaje",
  "del mismo modo que un jardín responde a los cuidados constantes",
  "como una buena historia que se descubre capítulo a capítulo",
  "como te dirá cualquiera que lo haya intentado durante una semana",
  "y por eso el tema aparece tan a menudo en las conversaciones",
  "y conviene recordarlo para lo que viene",
  "sobre todo cuando se compara una década con la siguiente",
  "aunque los titulares rara vez hablen de ello",
  "algo que los profesionales con experiencia repiten a menudo",
  "y pequeños cambios pueden tener grandes efectos",
  "lo que hace tan valiosa la observación atenta",
  "así que lo mejor es empezar por lo básico",
  "y es en los detalles donde todo se vuelve interesante",
  "como muestra un vistazo rápido a ejemplos reales",
  "lo que explica por qué tanta gente se apasiona por ello",
  "aunque las razones no siempre sean evidentes",
  "y entenderlo ahorra mucho tiempo",
  "igual que una brújula ayuda mucho antes de que aparezca el destino",
  "y todo empieza a menudo con una sola pregunta",
  "y volveremos sobre ello",
  "así que mirémoslo con ojos nuevos",
  "y eso cambia toda la perspectiva",
  "tanto si eres un simple curioso como si eres especialista",
  "y cada ejemplo añade una pieza al rompecabezas",
  "y esta idea sencilla llega lejos",
  "lo que ayuda a entender las decisiones que toma la gente",
  "una lección que va mucho más allá de este tema",
  "y es más fácil de ver cuando se sabe dónde mirar",
  "como sugieren las observaciones hechas en muchos lugares",
  "y aquí hay más de lo que parece",
] as const;

/** Every template uses {A}, {B} and {C} once; {deS} is "de" + the subject, contracted. {A^} is capitalised. */
export const BODY_TEMPLATES_ES = [
  "{A^} {B}, {C}.",
  "Cuando se habla {deS}, {A} {B}, {C}.",
  "Hay que señalar que {A} {B}, {C}.",
  "Mucha gente descubre que {A} {B}, {C}.",
  "He aquí una verdad sencilla: {A} {B}, {C}.",
  "Si se mira de cerca, {A} {B}, {C}.",
  "En la práctica, {A} {B}, {C}.",
  "Verás que {A} {B}, {C}.",
  "Piénsalo un momento: {A} {B}, {C}.",
  "Una cosa salta a la vista en el caso {deS}: {A} {B}, {C}.",
  "Los especialistas lo subrayan a menudo: {A} {B}, {C}.",
  "Recuerda esto: {A} {B}, {C}.",
  "Por sorprendente que parezca, {A} {B}, {C}.",
  "A primera vista todo parece sencillo, y sin embargo {A} {B}, {C}.",
  "Dicho de forma sencilla, {A} {B}, {C}.",
  "En todo el mundo, {A} {B}, {C}.",
] as const;

export const NUMBERS_ES = [
  "uno", "dos", "tres", "cuatro", "cinco", "seis", "siete", "ocho", "nueve", "diez",
  "once", "doce", "trece", "catorce", "quince", "dieciséis", "diecisiete", "dieciocho", "diecinueve", "veinte",
];

/** "de" before a noun phrase: de + el -> del; everything else kept ("de la", "de los", "de las", "de este"). */
export function deEs(phrase: string): string {
  return /^el\s/i.test(phrase) ? `del ${phrase.slice(3)}` : `de ${phrase}`;
}

/** "a" before a noun phrase: a + el -> al. */
export function aEs(phrase: string): string {
  return /^el\s/i.test(phrase) ? `al ${phrase.slice(3)}` : `a ${phrase}`;
}

const STOPWORDS_ES = new Set(
  (
    "ahora algo algún alguna algunas alguno algunos ante antes aquel aquella aquí así aunque bajo bien cada casi cierto como " +
    "cómo con contra cual cuál cuando cuándo desde donde dónde durante ella ellas ellos entre esta está están este esto estos " +
    "estas hace hacen hacer hasta hay mucho muchos mucha muchas muy nada nosotros nuestra nuestro otra otras otro otros para " +
    "pero poco porque qué quien quién quienes sobre solo sólo también tanto tiene tienen todo todos toda todas tras una unas " +
    "unos usted vídeo video vídeos videos guía consejos trucos cosas cosa manera maneras forma formas mejor mejores simple " +
    "sencillo fácil rápido completo parte partes introducción principiante principiantes hoy mañana año años nuevo nueva nuevos " +
    "nuevas saber aprender descubrir entender secreto secretos"
  ).split(" "),
);

/** Verb forms ("fabrican", "polinizar", "bailaba", "volando") read badly where the grammar expects a noun. */
const VERB_ENDING_ES = /(?:ar|er|ir|an|aba|aban|ando|iendo|aron|ieron)$/;
const NOUN_ENDING_ES = /(?:ción|sión|dad|tad|tud|miento|ismo|ista|ura|encia|ancia|aje|eza|umbre)s?$/;
const ARTICLE_ES = /^(el|la|los|las|un|una|unos|unas|del|al)$/i;

/** The article for a bare noun, guessed from its ending: -as -> las, -s -> los, usual feminine endings -> la, else el. */
function guessArticleEs(word: string): string {
  if (/as$/.test(word)) return `las ${word}`;
  if (/s$/.test(word)) return `los ${word}`;
  if (/(?:a|ción|sión|dad|tad|tud|umbre)$/.test(word)) return `la ${word}`;
  return `el ${word}`;
}

/** The noun with the definite article the topic gives it ("unas abejas" -> "las abejas", "del polen" -> "el polen"). */
function withArticleEs(word: string, text: string): string {
  const escaped = word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const match = new RegExp(`(?:^|[\\s(«"“])([a-záéíóúñü]+)\\s${escaped}(?=$|[\\s,.;:!?)»"”])`, "iu").exec(text);
  const article = match?.[1]?.toLowerCase();
  if (!article || !ARTICLE_ES.test(article)) return guessArticleEs(word);
  if (/^(los|unos)$/.test(article)) return `los ${word}`;
  if (/^(las|unas)$/.test(article)) return `las ${word}`;
  if (/^(la|una)$/.test(article)) return `la ${word}`;
  return `el ${word}`; // el, un, del, al
}

/** The topic's likeliest nouns with their article, most frequent first, favouring those the title repeats. */
export function spanishKeywords(text: string, limit = 4, preferred = ""): string[] {
  const counts = new Map<string, number>();
  const lower = text.toLowerCase();
  for (const raw of lower.match(/[\p{L}\p{N}][\p{L}\p{N}-]*/gu) ?? []) {
    if (raw.length < 4 || STOPWORDS_ES.has(raw) || /^\d+$/.test(raw)) continue;
    counts.set(raw, (counts.get(raw) ?? 0) + 1);
  }
  const favoured = preferred.toLowerCase();
  return [...counts.entries()]
    .map(([word, count], index) => ({ word, index, score: count + (NOUN_ENDING_ES.test(word) ? 1.5 : 0) + (favoured.includes(word) ? 2 : 0) - (VERB_ENDING_ES.test(word) ? 3 : 0) }))
    // a verb only when the topic has fewer than two likely nouns
    .filter((e, _, all) => e.score > 0 || all.filter((x) => x.score > 0).length < 2)
    .sort((x, y) => y.score - x.score || x.index - y.index)
    .slice(0, limit)
    .map((e) => withArticleEs(e.word, lower));
}

/** An angle with its keyword put in: {K}, {deK} and {aK}. */
export function fillAngleEs(angle: string, keyword: string): string {
  return angle.replace("{deK}", deEs(keyword)).replace("{aK}", aEs(keyword)).replace("{K}", keyword);
}

export function fillEs(template: string, parts: { A: string; B: string; C?: string; S?: string }): string {
  return fillFrame(template, parts, { "{deS}": deEs(parts.S ?? "este tema") });
}
