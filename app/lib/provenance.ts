// Where the work came from, in words a creator reads on /script and /storyboard: which provider wrote the script,
// split it into scenes, drew the pictures and spoke the voiceovers. Names are the providers' own (`name` in
// app/providers), recorded on the rows when the work was done, so the pages say what happened, not what the
// settings say now. Badges claim only what the provider did (docs/decisions/081).

import { OWN_SCRIPT_WRITER } from "./own-script";

const OFFLINE_WRITER = "Offline writer";

/** The script is the offline writer's template draft. */
export const isTemplateDraft = (writtenBy: string | null | undefined) => writtenBy === OFFLINE_WRITER;
const OFFLINE_ILLUSTRATION = "Offline illustration";
const OFFLINE_VOICE = "Offline voice (Flite)";
/** The offline neural voice's provider name (app/providers/speech/piper-voices.server.ts). */
const OFFLINE_NEURAL_VOICE = "Offline neural voice (Piper)";

/** How a provider is named in a sentence. */
export function providerPhrase(name: string): string {
  if (name === OFFLINE_WRITER) return "the offline writer (templates, no AI)";
  if (name === OFFLINE_ILLUSTRATION) return "offline illustrations (no AI)";
  if (name === OFFLINE_VOICE) return "Flite, the offline voice";
  if (name === OFFLINE_NEURAL_VOICE) return "Piper, the offline neural voice";
  return name;
}

export const isOfflineProvider = (name: string) => [OFFLINE_WRITER, OFFLINE_ILLUSTRATION, OFFLINE_VOICE, OFFLINE_NEURAL_VOICE].includes(name);

/** The finished script's badges: what was done to it, by whom. None when the writer was not recorded. */
export function scriptBadges(writtenBy: string | null | undefined): string[] {
  if (!writtenBy) return [];
  if (writtenBy === OWN_SCRIPT_WRITER) return ["Your own words", "Read exactly as written"];
  if (writtenBy === OFFLINE_WRITER) return ["Written offline from templates", "Repeated sentences removed", "No AI used"];
  return [`Written by ${writtenBy}`, `Proofread by ${writtenBy}`];
}

/** The line under the script saying who wrote it. */
export function scriptWriterLine(writtenBy: string | null | undefined): string {
  if (!writtenBy) return "The writer of this script was not recorded.";
  if (writtenBy === OWN_SCRIPT_WRITER) return "Your own script: saved exactly as you wrote it, nothing rewritten.";
  if (writtenBy === OFFLINE_WRITER) return "Written by the offline writer (templates, no AI): no Gemini key was saved when it was written.";
  return `Written and proofread by ${writtenBy}.`;
}

export type MadeWithItem = { what: "Scenes" | "Images" | "Voiceovers"; text: string };

type CellOrigin = { imageUrl: string | null; audioUrl: string | null; imageSource: string; imageMadeBy: string | null; voiceMadeBy: string | null };

/** "Offline illustration (4), Leonardo.Ai (2)": each provider with how many scenes it made, most first. */
function tally(names: string[]): string {
  const counts = new Map<string, number>();
  for (const name of names) counts.set(name, (counts.get(name) ?? 0) + 1);
  return [...counts.entries()]
    .sort((a, b) => b[1] - a[1])
    .map(([name, n]) => `${providerPhrase(name)} (${n})`)
    .join(", ");
}

function describe(parts: [string, number][]): string {
  return parts.filter(([, n]) => n > 0).map(([text, n]) => `${text} (${n})`).join(", ");
}

/** What made the storyboard: the scene split, the pictures and the voices, each said only when known. */
export function storyboardMadeWith(splitBy: string | null | undefined, cells: CellOrigin[]): MadeWithItem[] {
  const items: MadeWithItem[] = [];
  if (splitBy) items.push({ what: "Scenes", text: `split by ${providerPhrase(splitBy)}` });
  if (!cells.length) return items;
  const withImage = cells.filter((c) => c.imageUrl);
  const generated = withImage.filter((c) => c.imageSource === "generated");
  const images = [
    tally(generated.filter((c) => c.imageMadeBy).map((c) => c.imageMadeBy!)),
    describe([
      ["your own media", withImage.length - generated.length],
      ["not recorded", generated.filter((c) => !c.imageMadeBy).length],
      ["not made yet", cells.length - withImage.length],
    ]),
  ];
  items.push({ what: "Images", text: images.filter(Boolean).join(", ") });
  const withVoice = cells.filter((c) => c.audioUrl);
  const voices = [
    tally(withVoice.filter((c) => c.voiceMadeBy).map((c) => c.voiceMadeBy!)),
    describe([
      ["not recorded", withVoice.filter((c) => !c.voiceMadeBy).length],
      ["not made yet", cells.length - withVoice.length],
    ]),
  ];
  items.push({ what: "Voiceovers", text: voices.filter(Boolean).join(", ") });
  return items;
}
