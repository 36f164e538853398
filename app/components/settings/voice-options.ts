// The Voice Settings select: voices grouped by category under '--- {group} Voices ---', inside a group
// female first, then male, then the rest (missing gender included), each part sorted by name.
import type { Voice, VoiceCategory } from "~/providers/types";

export const VOICE_GROUPS: { category: VoiceCategory; group: string }[] = [
  { category: "premade", group: "Premade" },
  { category: "professional", group: "Professional" },
  { category: "cloned", group: "Voice Clones" },
  { category: "generated", group: "Generated" },
];

export type VoiceGroup = { group: string; heading: string; voices: Voice[] };

export const voiceGroupHeading = (group: string) => `--- ${group} Voices ---`;

function genderRank(voice: Voice): number {
  const gender = voice.gender?.trim().toLowerCase();
  return gender === "female" ? 0 : gender === "male" ? 1 : 2;
}

const byName = (a: Voice, b: Voice) => a.name.localeCompare(b.name, "en", { sensitivity: "base" }) || a.id.localeCompare(b.id);

/** The non-empty groups in the spec's order; a voice id listed twice appears once. */
export function groupVoices(voices: Voice[]): VoiceGroup[] {
  const unique = [...new Map(voices.map((v) => [v.id, v])).values()];
  return VOICE_GROUPS.map(({ category, group }) => ({
    group,
    heading: voiceGroupHeading(group),
    voices: unique.filter((v) => v.category === category).sort((a, b) => genderRank(a) - genderRank(b) || byName(a, b)),
  })).filter((g) => g.voices.length > 0);
}

/** "Name (age) [accent]", each part only when present. */
export function voiceLabel(voice: Pick<Voice, "name" | "age" | "accent">): string {
  let label = voice.name;
  if (voice.age?.trim()) label += ` (${voice.age.trim()})`;
  if (voice.accent?.trim()) label += ` [${voice.accent.trim()}]`;
  return label;
}
