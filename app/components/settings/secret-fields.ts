// Secret inputs: a saved secret shows only as a row of dots as long as it (8 when its length is unknown);
// saving sends the trimmed, non-empty fields, and (older page) never a value made only of mask dots.
import { MASK_PLACEHOLDER_FALLBACK } from "~/lib/constants";

export const MASK_DOT = "•";

/** The placeholder for a secret input: dots for a saved secret (length 0 means none saved). */
export function maskedPlaceholder(savedLength: number | null | undefined, emptyText: string): string {
  if (savedLength === 0) return emptyText;
  return MASK_DOT.repeat(savedLength && savedLength > 0 ? savedLength : MASK_PLACEHOLDER_FALLBACK);
}

export const isOnlyMaskDots = (value: string) => /^[•●*·]+$/.test(value.trim());

/** The fields to send: trimmed, non-empty, and not mask dots. */
export function fieldsToSave<K extends string>(values: Record<K, string>): Partial<Record<K, string>> {
  const out: Partial<Record<K, string>> = {};
  for (const [key, raw] of Object.entries(values) as [K, string][]) {
    const value = raw.trim();
    if (value && !isOnlyMaskDots(value)) out[key] = value;
  }
  return out;
}
