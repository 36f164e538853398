// YouTube facts shared by the browser and the server: category names for the spec's allowed ids, tag parsing,
// the upload body's limits, and the connection error texts (spec sections 5, 8 and 9).
import { DEFAULT_CATEGORY_ID, INITIAL_CATEGORY_ID, UPLOAD_LIMITS, YOUTUBE_CATEGORY_IDS } from "./constants";

export type YoutubeCategoryId = (typeof YOUTUBE_CATEGORY_IDS)[number];
export type YoutubeCategory = { id: string; title: string };

/** YouTube's own names (videoCategories.list, region US) for the allowed ids; used when YouTube is not asked. */
export const YOUTUBE_CATEGORY_TITLES: Record<YoutubeCategoryId, string> = {
  "1": "Film & Animation",
  "2": "Autos & Vehicles",
  "10": "Music",
  "15": "Pets & Animals",
  "17": "Sports",
  "19": "Travel & Events",
  "20": "Gaming",
  "22": "People & Blogs",
  "23": "Comedy",
  "24": "Entertainment",
  "25": "News & Politics",
  "26": "Howto & Style",
  "27": "Education",
  "28": "Science & Technology",
};

export const isAllowedCategory = (id: string): id is YoutubeCategoryId => (YOUTUBE_CATEGORY_IDS as readonly string[]).includes(id);

/** The form's category: the creator's saved preference, else the default (24); 22 until the settings load. */
export function initialCategory(preferred: string | null | undefined, loaded: boolean): string {
  if (!loaded) return INITIAL_CATEGORY_ID;
  return preferred && isAllowedCategory(preferred) ? preferred : DEFAULT_CATEGORY_ID;
}

/** Tags as the spec splits them: on commas, trimmed, empties dropped. */
export function parseTags(text: string): string[] {
  return text
    .split(",")
    .map((t) => t.trim())
    .filter(Boolean);
}

export const exceedsDescriptionLimit = (description: string) => description.length > UPLOAD_LIMITS.descriptionChars;
export const exceedsTagsLimit = (tags: string) => tags.length > UPLOAD_LIMITS.tagsChars;

/** youtube.force-ssl is what captions.insert asks for (the caption track sent with the video, issue 37). */
export const CAPTIONS_SCOPE = "https://www.googleapis.com/auth/youtube.force-ssl";
export const YOUTUBE_SCOPES = ["https://www.googleapis.com/auth/youtube.upload", "https://www.googleapis.com/auth/youtube.readonly", CAPTIONS_SCOPE];
export const CAPTIONS_NEED_RECONNECT =
  "The caption track was not sent: your YouTube connection was made before Reelsmith asked to manage captions. Disconnect and connect YouTube again, then upload again to include captions.";

export const CONNECTION_TEXTS = {
  authError: { title: "Authentication Error", description: "Failed to start YouTube authentication. Please check your OAuth credentials in settings." },
  connectionError: { title: "Connection Error", description: "Unable to connect to YouTube. Please try again." },
} as const;

/** What YouTube's quota error means for the creator, and what to do. */
export const QUOTA_EXCEEDED_MESSAGE =
  "YouTube refused the upload: your Google Cloud project's daily YouTube Data API quota is used up. It resets at midnight Pacific Time; upload again then, or ask Google for more quota in the Google Cloud Console.";
export const RECONNECT_MESSAGE = "Your YouTube connection is no longer valid (access was revoked or expired). Connect YouTube again, then retry the upload.";
