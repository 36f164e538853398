// The image source a project's storyboard uses (issue 23): shared by the storyboard page, the server and the
// scene-image activity.
export const IMAGE_SOURCES = ["offline", "leonardo", "pexels_photos", "pexels_clips"] as const;
export type ImageSourceValue = (typeof IMAGE_SOURCES)[number];

export const IMAGE_SOURCE_NAMES: Record<ImageSourceValue, string> = {
  offline: "Offline illustrations",
  leonardo: "Leonardo (your key)",
  pexels_photos: "Pexels photos (your key)",
  pexels_clips: "Pexels clips (your key)",
};

/** The sources that need a key of the creator's, and which one. */
export const IMAGE_SOURCE_KEY: Partial<Record<ImageSourceValue, "Leonardo" | "Pexels">> = {
  leonardo: "Leonardo",
  pexels_photos: "Pexels",
  pexels_clips: "Pexels",
};

export const isPexelsSource = (source: ImageSourceValue | null | undefined): source is "pexels_photos" | "pexels_clips" =>
  source === "pexels_photos" || source === "pexels_clips";

/** What a project's images come from: its own choice, else Leonardo when the creator saved a key, else offline. */
export function effectiveImageSource(chosen: ImageSourceValue | null, leonardoKeySaved: boolean): ImageSourceValue {
  return chosen ?? (leonardoKeySaved ? "leonardo" : "offline");
}

export const LEONARDO_KEY_MISSING = "This project uses Leonardo images, but no Leonardo API key is saved. Save it in Settings, or choose Offline illustrations on the storyboard.";

export const PEXELS_KEY_MISSING = "This project uses Pexels stock media, but no Pexels API key is saved. Save your free Pexels key in Settings, or choose Offline illustrations on the storyboard.";
