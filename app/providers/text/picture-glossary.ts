// French and Spanish nouns in English, for the offline image prompts of a French or Spanish scene: image prompts
// stay English (decision 090), and the offline illustrator finds its pictures by English words, so a scene about
// "les abeilles" or "la miel" is drawn with a bee and honey rather than an abstract composition. The nouns a
// topic is likeliest to name (nature, animals, food, places, science, daily life), and those the offline writer's
// own phrases use (a map, a garden, a compass). Singular keys, no article; plurals are looked up without -s/-x.

const glossary = (pairs: string): Record<string, string> =>
  Object.fromEntries(
    pairs
      .trim()
      .split(/\s*;\s*/)
      .filter(Boolean)
      .map((pair) => pair.split("=").map((w) => w.trim()) as [string, string]),
  );

export const FRENCH_NOUNS: Readonly<Record<string, string>> = glossary(`
  abeille=honeybee; ruche=honeybee; miel=honey; fleur=flower; arbre=tree; forêt=forest; jardin=garden; plante=plant; graine=seed;
  feuille=leaf; herbe=herb; champignon=mushroom; fruit=fruit; pomme=apple; raisin=grapes; citron=lemon; orange=tangerine;
  fraise=strawberry; cerise=cherries; tomate=tomato; carotte=carrot; pain=bread; fromage=cheese; vin=wine; café=coffee;
  thé=tea; chocolat=chocolate; gâteau=cake; lait=milk; oeuf=egg; œuf=egg; riz=rice; blé=sheaf; sel=salt; sucre=candy;
  cuisine=cooking; repas=food; nourriture=food; eau=water; mer=sea; océan=ocean; vague=wave; plage=beach; île=island;
  rivière=wave; fleuve=wave; lac=wave; montagne=mountain; volcan=volcano; désert=desert; neige=snowflake; glace=ice;
  pluie=rain; nuage=cloud; orage=lightning; vent=wind; soleil=sun; lune=moon; étoile=star; ciel=sky; planète=planet;
  terre=earth; monde=world; espace=space; fusée=rocket; météo=weather; climat=thermometer; feu=fire; énergie=energy;
  électricité=electricity; chien=dog; chat=cat; cheval=horse; vache=cow; cochon=pig; mouton=sheep; poule=chicken;
  oiseau=bird; poisson=fish; baleine=whale; dauphin=dolphin; requin=shark; pieuvre=octopus; tortue=turtle;
  serpent=snake; lion=lion; tigre=tiger; éléphant=elephant; singe=monkey; ours=bear; loup=wolf; renard=fox;
  lapin=rabbit; souris=mouse; papillon=butterfly; fourmi=ant; araignée=spider; insecte=bug; animal=paw;
  ville=city; maison=house; école=school; église=church; château=castle; pont=bridge; route=road; rue=road;
  voiture=car; train=train; avion=airplane; bateau=boat; navire=ship; vélo=bicycle; voyage=travel; carte=map;
  boussole=compass; livre=book; histoire=history; science=science; laboratoire=microscope; médecine=medicine;
  santé=health; médecin=doctor; cerveau=brain; coeur=heart; cœur=heart; musique=music; chanson=song; art=art;
  peinture=palette; photo=camera; argent=money; économie=money; marché=cart; travail=briefcase; ordinateur=computer;
  téléphone=phone; internet=internet; robot=robot; sport=sport; football=football; jeu=game; horloge=clock;
  temps=hourglass; idée=idea; question=thinking; famille=house; enfant=child; bébé=baby; ami=handshake; amour=love;
  roi=king; reine=queen; guerre=sword; paix=dove; drapeau=flag; loi=scales; recherche=microscope; données=chart;
  progrès=chart; avenir=telescope; passé=hourglass; pierre=rock; diamant=diamond; outil=toolbox; outils=toolbox
`);

export const SPANISH_NOUNS: Readonly<Record<string, string>> = glossary(`
  abeja=honeybee; colmena=honeybee; miel=honey; flor=flower; árbol=tree; bosque=forest; jardín=garden; planta=plant;
  semilla=seed; hoja=leaf; hierba=herb; seta=mushroom; hongo=mushroom; fruta=fruit; manzana=apple; uva=grapes;
  limón=lemon; naranja=tangerine; fresa=strawberry; cereza=cherries; tomate=tomato; zanahoria=carrot; pan=bread;
  queso=cheese; vino=wine; café=coffee; té=tea; chocolate=chocolate; pastel=cake; tarta=cake; leche=milk; huevo=egg;
  arroz=rice; trigo=sheaf; sal=salt; azúcar=candy; cocina=cooking; comida=food; alimento=food; agua=water; mar=sea;
  océano=ocean; ola=wave; playa=beach; isla=island; río=wave; lago=wave; montaña=mountain; volcán=volcano;
  desierto=desert; nieve=snowflake; hielo=ice; lluvia=rain; nube=cloud; tormenta=lightning; viento=wind; sol=sun; luna=moon;
  estrella=star; cielo=sky; planeta=planet; tierra=earth; mundo=world; espacio=space; cohete=rocket; tiempo=hourglass;
  clima=thermometer; fuego=fire; energía=energy; electricidad=electricity; perro=dog; gato=cat; caballo=horse; vaca=cow;
  cerdo=pig; oveja=sheep; gallina=chicken; pájaro=bird; ave=bird; pez=fish; pescado=fish; ballena=whale;
  delfín=dolphin; tiburón=shark; pulpo=octopus; tortuga=turtle; serpiente=snake; león=lion; tigre=tiger;
  elefante=elephant; mono=monkey; oso=bear; lobo=wolf; zorro=fox; conejo=rabbit; ratón=mouse; mariposa=butterfly;
  hormiga=ant; araña=spider; insecto=bug; animal=paw; ciudad=city; casa=house; hogar=house; escuela=school;
  iglesia=church; castillo=castle; puente=bridge; carretera=road; calle=road; coche=car; carro=car; auto=car;
  tren=train; avión=airplane; barco=boat; buque=ship; bicicleta=bicycle; viaje=travel; mapa=map; brújula=compass;
  libro=book; historia=history; ciencia=science; laboratorio=microscope; medicina=medicine; salud=health;
  médico=doctor; cerebro=brain; corazón=heart; música=music; canción=song; arte=art; pintura=palette; foto=camera;
  dinero=money; economía=money; mercado=cart; trabajo=briefcase; ordenador=computer; computadora=computer;
  teléfono=phone; internet=internet; robot=robot; deporte=sport; fútbol=football; juego=game; reloj=clock; idea=idea;
  pregunta=thinking; familia=house; niño=child; bebé=baby; amigo=handshake; amor=love; rey=king; reina=queen;
  guerra=sword; paz=dove; bandera=flag; ley=scales; investigación=microscope; datos=chart; progreso=chart;
  futuro=telescope; pasado=hourglass; piedra=rock; oro=gold; diamante=diamond; herramienta=toolbox; presupuesto=money
`);

/** Words the writer's own phrases use in every script ("l'histoire de...", "la science derrière..."): they count for
 * half, so the topic's own nouns are drawn first. */
const GENERIC = new Set(["history", "science", "money", "hourglass", "world", "idea", "thinking", "chart", "telescope", "hourglass", "microscope", "briefcase", "game", "map", "compass", "garden", "toolbox"]);

const GLOSSARIES: Record<string, Readonly<Record<string, string>>> = { fr: FRENCH_NOUNS, es: SPANISH_NOUNS };

/** The English word for a French or Spanish noun (bare, any case, singular or plural); undefined when unknown. */
export function pictureWordFor(word: string, language: string | undefined): string | undefined {
  const glossary = GLOSSARIES[language?.toLowerCase().slice(0, 2) ?? ""];
  if (!glossary) return undefined;
  const w = word.toLowerCase();
  // plurals: -s and -x (French), -es after a consonant (Spanish "flores", "árboles" -> "árbol")
  for (const form of [w, w.replace(/x$/, ""), w.replace(/s$/, ""), w.replace(/es$/, "")]) {
    if (glossary[form]) return glossary[form];
  }
  // Spanish drops the written accent in some plurals ("camiones" -> "camión"): try the accented singular
  const unaccentedPlural = /^(.*)([aeiou])(n|s)es$/.exec(w);
  if (unaccentedPlural) {
    const accented = { a: "á", e: "é", i: "í", o: "ó", u: "ú" }[unaccentedPlural[2] as "a"];
    return glossary[`${unaccentedPlural[1]}${accented}${unaccentedPlural[3]}`];
  }
  return undefined;
}

export const hasPictureGlossary = (language: string | undefined) => !!GLOSSARIES[language?.toLowerCase().slice(0, 2) ?? ""];

/**
 * The English picture words of a French or Spanish text, the likeliest subject first: how often each is named,
 * generic ones for half, and those the title names first. Empty for another language or no known noun.
 */
export function pictureWordsOf(text: string, language: string | undefined, title = "", limit = 4): string[] {
  if (!hasPictureGlossary(language)) return [];
  const inTitle = new Set((title.toLowerCase().match(/\p{L}+/gu) ?? []).map((w) => pictureWordFor(w, language)).filter(Boolean));
  const scores = new Map<string, number>();
  for (const word of text.toLowerCase().match(/\p{L}+/gu) ?? []) {
    const english = pictureWordFor(word, language);
    if (!english) continue;
    scores.set(english, (scores.get(english) ?? 0) + (GENERIC.has(english) ? 0.5 : 1));
  }
  return [...scores.entries()]
    .map(([word, score], order) => ({ word, order, score: score + (inTitle.has(word) ? 2 : 0) }))
    .sort((a, b) => b.score - a.score || a.order - b.order)
    .slice(0, limit)
    .map((e) => e.word);
}
