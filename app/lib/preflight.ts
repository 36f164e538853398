// The upload's pre-flight check (issue 37): what YouTube will do with this video and this metadata, checked before
// the upload starts. Each item passes, or says what is wrong and which fix is one click away; an item that would
// make YouTube refuse or mangle the upload blocks it. The same function runs in the browser (the list on the Upload
// page, as the creator types) and on the server (POST /api/youtube/upload refuses what it blocks).
// Sources: YouTube Data API videos resource (title at most 100 characters, description at most 5,000 bytes,
// neither with < or >, tags at most 500 characters counted as YouTube counts them), "Upload YouTube Shorts"
// (vertical or square, at most 3 minutes), thumbnails.set (JPEG, PNG, GIF or BMP, at most 2 MB; 1280x720
// recommended), "Add chapters" (chapters.ts), decision 190 (loudness).
import { chaptersInDescription, validateChapters, type Chapter } from "./chapters";

export const YOUTUBE_RULES = {
  titleChars: 100,
  descriptionBytes: 5000,
  tagsChars: 500,
  shortsMaxSeconds: 180,
  thumbnailMaxBytes: 2 * 1024 * 1024,
  thumbnailTypes: ["image/jpeg", "image/png", "image/gif", "image/bmp"],
  loudnessLufs: -14,
  loudnessToleranceLu: 1,
  truePeakDbtp: -1,
} as const;

export type PreflightVideo = {
  width: number | null;
  height: number | null;
  durationSeconds: number | null;
  loudnessLufs: number | null;
  truePeakDbtp: number | null;
  captionCueCount: number;
};
export type PreflightThumbnail = { mimeType: string; bytes: number } | null;

export type PreflightInput = {
  video: PreflightVideo | null;
  title: string;
  description: string;
  tags: readonly string[];
  /** ISO instant when scheduled, null to publish on upload */
  publishAt: string | null;
  thumbnail: PreflightThumbnail;
  /** chapters from the scenes, offered as the fix for missing or broken chapter lines */
  sceneChapters: readonly Chapter[];
  /** false when the YouTube connection was made without the captions scope (captions.insert would be refused) */
  captionsAllowed?: boolean;
  now: Date;
};

/** What one click does to fix an item (the page carries it out; the server only reports it). */
export type PreflightFix =
  | "shorten-title"
  | "remove-angle-brackets"
  | "trim-description"
  | "trim-tags"
  | "use-scene-chapters"
  | "remove-chapters"
  | "publish-now"
  | "render-again"
  | "make-thumbnail";

export type PreflightItem = {
  id: "loudness" | "duration" | "resolution" | "title" | "description" | "tags" | "thumbnail" | "captions" | "chapters" | "publish-time";
  label: string;
  status: "pass" | "fail";
  detail: string;
  /** a failing item YouTube would refuse or mangle: the upload waits until it is fixed */
  blocks: boolean;
  fix: { action: PreflightFix; label: string } | null;
};

const utf8Bytes = (text: string) => new TextEncoder().encode(text).length;

/** Tags as YouTube counts them: each tag's characters, plus 2 for the quotes around one with a space, plus the commas. */
export function youtubeTagsLength(tags: readonly string[]): number {
  if (!tags.length) return 0;
  return tags.reduce((n, t) => n + t.length + (/\s/.test(t) ? 2 : 0), 0) + tags.length - 1;
}

const aspectName = (w: number, h: number) => {
  const ratio = w / h;
  if (Math.abs(ratio - 16 / 9) < 0.01) return "16:9";
  if (Math.abs(ratio - 9 / 16) < 0.01) return "9:16";
  if (Math.abs(ratio - 1) < 0.01) return "1:1";
  return `${w}:${h}`;
};

const mmss = (seconds: number) => `${Math.floor(seconds / 60)}:${String(Math.round(seconds % 60)).padStart(2, "0")}`;

export function preflightChecks(input: PreflightInput): PreflightItem[] {
  const items: PreflightItem[] = [];
  const pass = (id: PreflightItem["id"], label: string, detail: string) => items.push({ id, label, status: "pass", detail, blocks: false, fix: null });
  const fail = (id: PreflightItem["id"], label: string, detail: string, blocks: boolean, fix: PreflightItem["fix"]) =>
    items.push({ id, label, status: "fail", detail, blocks, fix });
  const v = input.video;
  const renderAgain = { action: "render-again" as const, label: "Render again" };

  // loudness: YouTube turns loud videos down and leaves quiet ones quiet
  if (!v || v.loudnessLufs === null || v.truePeakDbtp === null) {
    fail("loudness", "Loudness and true peak", "Not measured for this video (rendered before loudness was measured). Render it again to bring it to -14 LUFS.", false, renderAgain);
  } else {
    const off = Math.abs(v.loudnessLufs - YOUTUBE_RULES.loudnessLufs) > YOUTUBE_RULES.loudnessToleranceLu;
    const peaky = v.truePeakDbtp > YOUTUBE_RULES.truePeakDbtp;
    const figures = `${v.loudnessLufs.toFixed(1)} LUFS, true peak ${v.truePeakDbtp.toFixed(1)} dBTP`;
    if (off || peaky) {
      fail("loudness", "Loudness and true peak", `${figures}: YouTube plays videos at -14 LUFS with peaks at most -1 dBTP, so this one will sound ${v.loudnessLufs < YOUTUBE_RULES.loudnessLufs ? "quieter than the videos around it" : "turned down"}.`, false, renderAgain);
    } else pass("loudness", "Loudness and true peak", `${figures} (YouTube's target: -14 LUFS, at most -1 dBTP)`);
  }

  // duration and the Short's rules
  if (v?.durationSeconds && v.width && v.height) {
    const vertical = v.height >= v.width;
    if (vertical && v.durationSeconds > YOUTUBE_RULES.shortsMaxSeconds) {
      fail("duration", "Duration", `${mmss(v.durationSeconds)}: a vertical video over 3:00 is not a Short; YouTube shows it as a regular video.`, false, null);
    } else pass("duration", "Duration", vertical ? `${mmss(v.durationSeconds)}, vertical: a Short (at most 3:00)` : `${mmss(v.durationSeconds)}`);
  } else if (v) fail("duration", "Duration", "The video's length was not recorded. Render it again.", false, renderAgain);
  else fail("duration", "Duration", "No rendered video to check.", true, renderAgain);

  // resolution and aspect
  if (v?.width && v.height) {
    const aspect = aspectName(v.width, v.height);
    const standard = ["16:9", "9:16", "1:1"].includes(aspect);
    const shortSide = Math.min(v.width, v.height);
    if (!standard) fail("resolution", "Resolution and aspect", `${v.width}x${v.height} (${aspect}): YouTube adds black bars to this shape.`, false, renderAgain);
    else if (shortSide < 720) fail("resolution", "Resolution and aspect", `${v.width}x${v.height} (${aspect}): below 720p, YouTube shows it in SD only.`, false, renderAgain);
    else pass("resolution", "Resolution and aspect", `${v.width}x${v.height} (${aspect})`);
  } else if (v) fail("resolution", "Resolution and aspect", "The video's size was not recorded. Render it again.", false, renderAgain);
  else fail("resolution", "Resolution and aspect", "No rendered video to check.", true, renderAgain);

  // title
  const title = input.title.trim();
  if (!title) fail("title", "Title length", "Please enter a title for your video", true, null);
  else if (title.length > YOUTUBE_RULES.titleChars) {
    fail("title", "Title length", `The title is ${title.length} characters; YouTube takes at most ${YOUTUBE_RULES.titleChars}.`, true, { action: "shorten-title", label: "Shorten to 100 characters" });
  } else if (/[<>]/.test(title)) {
    fail("title", "Title length", "The title contains < or >, which YouTube refuses.", true, { action: "remove-angle-brackets", label: "Remove < and >" });
  } else pass("title", "Title length", `${title.length} of ${YOUTUBE_RULES.titleChars} characters`);

  // description
  const bytes = utf8Bytes(input.description);
  if (bytes > YOUTUBE_RULES.descriptionBytes) {
    fail("description", "Description size", `The description is ${bytes.toLocaleString("en-US")} bytes; YouTube takes at most 5,000.`, true, { action: "trim-description", label: "Cut to 5,000 bytes" });
  } else if (/[<>]/.test(input.description)) {
    fail("description", "Description size", "The description contains < or >, which YouTube refuses.", true, { action: "remove-angle-brackets", label: "Remove < and >" });
  } else pass("description", "Description size", `${bytes.toLocaleString("en-US")} of 5,000 bytes`);

  // tags
  const tagsLength = youtubeTagsLength(input.tags);
  if (tagsLength > YOUTUBE_RULES.tagsChars) {
    fail("tags", "Tags length", `The tags take ${tagsLength} characters as YouTube counts them; it takes at most ${YOUTUBE_RULES.tagsChars}.`, true, { action: "trim-tags", label: "Drop the last tags" });
  } else pass("tags", "Tags length", `${tagsLength} of ${YOUTUBE_RULES.tagsChars} characters`);

  // thumbnail (refused ones leave YouTube's own frame: the video itself is not affected)
  const makeThumbnail = { action: "make-thumbnail" as const, label: "Make a thumbnail" };
  if (!input.thumbnail) fail("thumbnail", "Thumbnail size and type", "No approved thumbnail: YouTube will pick a frame of the video.", false, makeThumbnail);
  else if (!(YOUTUBE_RULES.thumbnailTypes as readonly string[]).includes(input.thumbnail.mimeType)) {
    fail("thumbnail", "Thumbnail size and type", `The thumbnail is ${input.thumbnail.mimeType}; YouTube takes JPEG, PNG, GIF or BMP.`, false, makeThumbnail);
  } else if (input.thumbnail.bytes > YOUTUBE_RULES.thumbnailMaxBytes) {
    fail("thumbnail", "Thumbnail size and type", `The thumbnail is ${(input.thumbnail.bytes / 1024 / 1024).toFixed(1)} MB; YouTube takes at most 2 MB.`, false, makeThumbnail);
  } else pass("thumbnail", "Thumbnail size and type", `${input.thumbnail.mimeType.replace("image/", "").toUpperCase()}, ${Math.round(input.thumbnail.bytes / 1024)} KB (at most 2 MB)`);

  // captions
  if (v && v.captionCueCount > 0 && input.captionsAllowed === false) {
    fail("captions", "Captions attached", "Your YouTube connection was made before Reelsmith asked to manage captions: disconnect and connect YouTube again to send the caption track.", false, null);
  } else if (v && v.captionCueCount > 0) pass("captions", "Captions attached", `${v.captionCueCount} caption${v.captionCueCount === 1 ? "" : "s"} from the voiceovers, sent as a caption track`);
  else fail("captions", "Captions attached", "This video has no caption track. Render it again to make one from the voiceovers.", false, renderAgain);

  // chapters
  const chapters = chaptersInDescription(input.description);
  const check = validateChapters(chapters, v?.durationSeconds ?? 0);
  const canUseScenes = input.sceneChapters.length > 0;
  if (!check.present) {
    if (canUseScenes) fail("chapters", "Chapters valid", "No chapters in the description; the scenes make valid ones.", false, { action: "use-scene-chapters", label: "Add chapters from the scenes" });
    else pass("chapters", "Chapters valid", "No chapters (the video is too short for three chapters of 10 s)");
  } else if (!check.valid) {
    fail("chapters", "Chapters valid", `${check.reason} YouTube would show the timestamps as plain text.`, false, canUseScenes ? { action: "use-scene-chapters", label: "Use chapters from the scenes" } : { action: "remove-chapters", label: "Remove the timestamps" });
  } else pass("chapters", "Chapters valid", `${chapters.length} chapters, from 0:00, each at least 10 s`);

  // publish time
  if (input.publishAt) {
    const when = new Date(input.publishAt);
    if (Number.isNaN(when.getTime()) || when.getTime() <= input.now.getTime()) {
      fail("publish-time", "Publish time in the future", "The scheduled time is in the past. Pick a later date or time.", true, { action: "publish-now", label: "Publish on upload instead" });
    } else pass("publish-time", "Publish time in the future", `Scheduled for ${when.toISOString().slice(0, 16).replace("T", " ")} UTC`);
  } else pass("publish-time", "Publish time in the future", "Published as soon as YouTube has processed it");

  return items;
}

/** The items that stop the upload, in the list's order. */
export const blockingItems = (items: readonly PreflightItem[]) => items.filter((i) => i.status === "fail" && i.blocks);

/** A description cut to YouTube's 5,000 bytes, at a word when one is near. */
export function trimToBytes(text: string, maxBytes = YOUTUBE_RULES.descriptionBytes): string {
  if (utf8Bytes(text) <= maxBytes) return text;
  let cut = text;
  while (utf8Bytes(cut) > maxBytes) cut = cut.slice(0, Math.max(0, cut.length - Math.max(1, Math.ceil((utf8Bytes(cut) - maxBytes) / 4))));
  const space = cut.lastIndexOf(" ");
  return (space > cut.length - 200 ? cut.slice(0, space) : cut).trimEnd();
}

/** Tags kept from the first while they fit YouTube's count. */
export function trimTags(tags: readonly string[]): string[] {
  const kept: string[] = [];
  for (const tag of tags) if (youtubeTagsLength([...kept, tag]) <= YOUTUBE_RULES.tagsChars) kept.push(tag);
  return kept;
}
