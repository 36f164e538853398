// The Image Model Settings select: every model of the three groups, labelled with its name and the first
// 50 characters of its description.
import { MODEL_DESCRIPTION_CHARS } from "~/lib/constants";
import type { ModelSummary, ModelsResponse } from "./types";

export const DEFAULT_MODEL_NAME = "Leonardo Kino XL";

/** "(1 model cached)", "(12 models cached)" */
export const modelsCachedLabel = (n: number) => `(${n} ${n === 1 ? "model" : "models"} cached)`;

/** What the card says about the default: Leonardo's default model applies only once a Leonardo key is saved. */
export function defaultModelText(hasKey: boolean): string {
  return hasKey
    ? `The model that draws your scene images. The default is ${DEFAULT_MODEL_NAME}.`
    : `No Leonardo key is saved, so scene images are drawn offline (no AI) in the style chosen here. With a Leonardo key, the default model is ${DEFAULT_MODEL_NAME}.`;
}

export function truncateDescription(description: string | null | undefined, limit = MODEL_DESCRIPTION_CHARS): string {
  const text = (description ?? "").trim();
  return text.length > limit ? `${text.slice(0, limit)}...` : text;
}

export function modelLabel(model: ModelSummary): string {
  const description = truncateDescription(model.description);
  return description ? `${model.name} - ${description}` : model.name;
}

/** Custom models first, then featured, then core; a model listed in two groups appears once. */
export function flattenModels(response: Pick<ModelsResponse, "custom_models" | "featured_models" | "core_models"> | null | undefined): ModelSummary[] {
  if (!response) return [];
  const all = [...(response.custom_models ?? []), ...(response.featured_models ?? []), ...(response.core_models ?? [])];
  return [...new Map(all.map((m) => [m.id, m])).values()];
}
