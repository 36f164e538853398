// The image source a project's storyboard uses (issue 23): shared by the storyboard page, the server and the
// scene-image activity.
export const IMAGE_SOURCES = ["offline", "leonardo"] as const;
export type ImageSourceValue = (typeof IMAGE_SOURCES)[number];

export const IMAGE_SOURCE_NAMES: Record<ImageSourceValue, string> = {
  offline: "Offline illustrations",
  leonardo: "Leonardo (your key)",
};

/** What a project's images come from: its own choice, else Leonardo when the creator saved a key, else offline. */
export function effectiveImageSource(chosen: ImageSourceValue | null, leonardoKeySaved: boolean): ImageSourceValue {
  return chosen ?? (leonardoKeySaved ? "leonardo" : "offline");
}

export const LEONARDO_KEY_MISSING = "This project uses Leonardo images, but no Leonardo API key is saved. Save it in Settings, or choose Offline illustrations on the storyboard.";
