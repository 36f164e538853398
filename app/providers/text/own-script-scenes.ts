// The scene split of a creator's own script (issue 33, decision 170): every blank line or `---` line is a scene
// break that is kept. The planned scene count is shared out over the parts by words (at least one each), and each
// part is split by the provider itself (which cuts voiceovers exactly, so every word stays the creator's).
import { scenesPerSection, scriptSections } from "~/lib/own-script";
import type { ScenePlan, SceneSplitRequest, TextProvider } from "../types";

export async function splitOwnScriptIntoScenes(text: Pick<TextProvider, "splitIntoScenes">, request: SceneSplitRequest): Promise<ScenePlan[]> {
  const sections = scriptSections(request.script);
  if (sections.length <= 1) return text.splitIntoScenes({ ...request, script: sections[0] ?? request.script });
  const counts = scenesPerSection(sections, request.sceneCount);
  const scenes: ScenePlan[] = [];
  // one part at a time: a model is asked once per part, and parts stay in order
  for (const [i, section] of sections.entries()) {
    scenes.push(...(await text.splitIntoScenes({ ...request, script: section, sceneCount: counts[i]!, seed: `${request.seed}:${i}` })));
  }
  return scenes;
}
