import { describe, expect, it } from "vitest";
import { choosePhotoFile, chooseVideoFile, mediaCreditLines, pexelsOrientation, pexelsQueries, type PexelsPhoto, type PexelsVideo } from "./pexels.server";

const photo = (width: number, height: number): PexelsPhoto => ({
  id: 1,
  width,
  height,
  url: "https://www.pexels.com/photo/1/",
  photographer: "Ana",
  photographer_url: "https://www.pexels.com/@ana",
  alt: "",
  src: {
    original: "https://images.pexels.com/photos/1/pexels-photo-1.jpeg",
    large2x: "https://images.pexels.com/photos/1/pexels-photo-1.jpeg?auto=compress&cs=tinysrgb&dpr=2&h=650&w=940",
    large: "https://images.pexels.com/photos/1/pexels-photo-1.jpeg?auto=compress&cs=tinysrgb&h=650&w=940",
    medium: "https://images.pexels.com/photos/1/pexels-photo-1.jpeg?auto=compress&cs=tinysrgb&h=350",
  },
});

const file = (width: number | null, height: number | null, quality: string | null = "hd", file_type = "video/mp4") => ({
  id: (width ?? 0) * 10_000 + (height ?? 0),
  quality,
  file_type,
  width,
  height,
  link: `https://videos.pexels.com/video-files/1/${width}x${height}.mp4`,
});
const video = (files: ReturnType<typeof file>[]): PexelsVideo => ({ id: 9, width: 3840, height: 2160, url: "https://www.pexels.com/video/9/", duration: 12, user: { name: "Mira", url: "https://www.pexels.com/@mira" }, video_files: files });

describe("Pexels search queries", () => {
  it("searches the prompt's subject words, without the offline prompt's scene, title and style", () => {
    expect(pexelsQueries('octopuses, coral, reef — scene 1 of "Ocean Minds", cinematic photograph, soft natural light, vertical 9:16 frame')).toEqual([
      "octopuses coral reef",
      "octopuses coral",
      "octopuses",
    ]);
  });

  it("keeps the first four subject words of a long written prompt and drops grammar and style words", () => {
    expect(pexelsQueries("A cinematic photograph of a lighthouse on a rocky coast at dusk with crashing waves, golden hour")[0]).toBe("lighthouse rocky coast dusk");
  });

  it("falls back to the narration when the prompt has no subject words, and to nothing when neither has", () => {
    expect(pexelsQueries("cinematic photograph, soft natural light", "Bees dance to tell the hive where flowers are.")[0]).toBe("bees dance hive flowers");
    expect(pexelsQueries("the", "and so on")).toEqual([]);
  });

  it("asks for portrait pictures for 9:16 and landscape ones for 16:9", () => {
    expect(pexelsOrientation("9:16")).toBe("portrait");
    expect(pexelsOrientation("16:9")).toBe("landscape");
  });
});

describe("choosing a photo file", () => {
  it("takes the smallest rendition that covers the scene: large2x for a 720p scene, the original for a Full HD portrait", () => {
    // a 6000x4000 landscape photo: large2x is 1880x1253, which covers 1280x720 but not 1920x1080
    expect(choosePhotoFile(photo(6000, 4000), { width: 1280, height: 720 })).toMatchObject({ url: expect.stringContaining("dpr=2"), width: 1880, height: 1253 });
    expect(choosePhotoFile(photo(6000, 4000), { width: 1920, height: 1080 })).toMatchObject({ url: "https://images.pexels.com/photos/1/pexels-photo-1.jpeg", width: 6000 });
    expect(choosePhotoFile(photo(2400, 3600), { width: 1080, height: 1920 }).url).toBe("https://images.pexels.com/photos/1/pexels-photo-1.jpeg");
  });

  it("never picks an original too large to open safely: the largest safe rendition instead", () => {
    const huge = photo(9000, 6000); // 54 megapixels
    expect(choosePhotoFile(huge, { width: 1920, height: 1080 })).toMatchObject({ width: 1880, height: 1253 });
  });
});

describe("choosing a video file", () => {
  const landscape = video([file(3840, 2160, "uhd"), file(960, 540, "sd"), file(1920, 1080), file(1280, 720), file(null, null, null)]);

  it("takes the smallest MP4 that covers the scene: Full HD for a 1080p scene, never the 4K one", () => {
    expect(chooseVideoFile(landscape, { width: 1920, height: 1080 })).toMatchObject({ width: 1920, height: 1080 });
    expect(chooseVideoFile(landscape, { width: 1280, height: 720 })).toMatchObject({ width: 1280, height: 720 });
  });

  it("takes the largest one when none covers, skips files of unknown size or another type", () => {
    const small = video([file(960, 540, "sd"), file(640, 360, "sd"), file(null, 1080), file(3840, 2160, "uhd", "video/webm")]);
    expect(chooseVideoFile(small, { width: 1920, height: 1080 })).toMatchObject({ width: 960, height: 540 });
  });

  it("takes only files in the scene's orientation", () => {
    const portrait = video([file(1080, 1920), file(1920, 1080), file(2160, 3840, "uhd")]);
    expect(chooseVideoFile(portrait, { width: 1080, height: 1920 })).toMatchObject({ width: 1080, height: 1920 });
    expect(chooseVideoFile(video([file(1920, 1080)]), { width: 1080, height: 1920 })).toBeUndefined();
  });
});

describe("credit lines", () => {
  it("credits each photographer and videographer once, and Pexels", () => {
    const credit = (kind: "photo" | "video", id: number, author: string) => ({ provider: "Pexels" as const, kind, id, author, authorUrl: "", pageUrl: `https://www.pexels.com/${kind}/${id}/` });
    expect(mediaCreditLines([credit("photo", 1, "Ana Lima"), credit("photo", 2, "Ana Lima"), credit("video", 3, "Mira Costa")])).toEqual([
      "Stock media from Pexels (https://www.pexels.com):",
      "Photo by Ana Lima on Pexels: https://www.pexels.com/photo/1/",
      "Video by Mira Costa on Pexels: https://www.pexels.com/video/3/",
    ]);
    expect(mediaCreditLines([])).toEqual([]);
  });
});
