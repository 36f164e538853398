// Upload metadata rules: a description of at most 4,900 characters and tags of at
// most 400 characters together. Shared by the metadata writer's activity and the browser.
import { z } from "zod";
import { UPLOAD_LIMITS } from "./constants";

/** The body of POST /api/generate-metadata. */
export const GenerateMetadataSchema = z.object({
  script: z.string({ message: "script: the video's script is needed" }).trim().min(1, "the video's script is needed").max(100_000, "at most 100,000 characters"),
  title: z.string({ message: "title: the video's title is needed" }).trim().min(1, "the video's title is needed").max(200, "at most 200 characters"),
});

/** How the tags count against YouTube's limit: as the upload form shows them, joined with ", ". */
export function tagsLength(tags: readonly string[]): number {
  return tags.join(", ").length;
}

/**
 * Trims, de-duplicates (case-insensitively) and drops empty tags, keeps whole tags while they fit in 400
 * characters together, and cuts the description at 4,900 characters (at a word boundary when one is near).
 */
export function limitUploadMetadata(input: { description: string; tags: readonly string[] }): { description: string; tags: string[] } {
  const tags: string[] = [];
  const seen = new Set<string>();
  for (const raw of input.tags) {
    const tag = raw.replace(/[<>]/g, "").replace(/\s+/g, " ").trim();
    if (!tag || seen.has(tag.toLowerCase())) continue;
    if (tagsLength([...tags, tag]) > UPLOAD_LIMITS.tagsChars) continue;
    seen.add(tag.toLowerCase());
    tags.push(tag);
  }
  let description = input.description.replace(/[<>]/g, "").trim();
  if (description.length > UPLOAD_LIMITS.descriptionChars) {
    const cut = description.slice(0, UPLOAD_LIMITS.descriptionChars);
    const space = cut.lastIndexOf(" ");
    description = (space > UPLOAD_LIMITS.descriptionChars - 200 ? cut.slice(0, space) : cut).trimEnd();
  }
  return { description, tags };
}

/**
 * The description with the stock media credits (decision 073) at its end: the credits always fit, the
 * description's own text is cut (at a word boundary when one is near) to make room within 4,900 characters.
 */
export function withMediaCredits(description: string, creditLines: readonly string[]): string {
  if (!creditLines.length) return description;
  const credits = creditLines.join("\n").replace(/[<>]/g, "");
  if (description.includes(credits)) return description;
  const room = UPLOAD_LIMITS.descriptionChars - credits.length - 2;
  let body = description.trim();
  if (body.length > room) {
    const cut = body.slice(0, Math.max(0, room));
    const space = cut.lastIndexOf(" ");
    body = (space > room - 200 ? cut.slice(0, space) : cut).trimEnd();
  }
  return body ? `${body}\n\n${credits}` : credits;
}
