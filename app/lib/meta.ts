// The <title> and meta description of a page. A route's `meta` replaces its parents', so each page states both
// (search engines and Lighthouse's SEO audit want a description on every page; decision 134).
import type { MetaDescriptor } from "@remix-run/node";

export const SITE_DESCRIPTION =
  "Reelsmith turns a title and a topic into a finished video: AI script, scene images, voiceover, captions, music, rendering and upload to YouTube.";

/** Title and description meta tags for a page; the site's description unless the page has its own. */
export function pageMeta(title: string, description: string = SITE_DESCRIPTION): MetaDescriptor[] {
  return [{ title }, { name: "description", content: description }];
}
