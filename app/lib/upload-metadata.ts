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
