// A scene's stock photo or clip from Pexels (decision 073), for the scene-image activity: searched from the
// scene's prompt in the format's orientation, downloaded, checked by its bytes, scaled to the format (a photo
// re-encoded as JPEG without metadata; a clip re-encoded like an upload, muted and cut to 30 s) and stored.
import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileTypeFromBuffer } from "file-type";
import type { Project } from "~/generated/prisma/client";
import type { MediaCredit, StockMediaProvider } from "~/providers/image/pexels.server";
import { ProviderError } from "~/providers/errors";
import { prepareSceneClip, prepareSceneImage, SCENE_MEDIA_LIMITS, storePreparedClip } from "~/core/scene-media-files.server";
import { saveMedia } from "~/core/storage.server";
import { imageAspectFor, resolutionValue, videoSizeFor } from "~/lib/video-format";

const PHOTO_TYPES = new Set(["jpg", "png", "webp"]);
const CLIP_TYPES = new Set(["mp4", "mov", "webm", "m4v"]);

export type StockSceneMedia = {
  image: { id: string };
  clip: { id: string; durationSeconds: number } | null;
  credit: MediaCredit;
};

export async function fetchStockSceneMedia(input: {
  stock: StockMediaProvider;
  kind: "photo" | "clip";
  userId: string;
  project: Project;
  prompt: string;
  narration: string;
  /** Pexels ids other scenes of the project show already. */
  exclude: number[];
}): Promise<StockSceneMedia> {
  const { stock, userId, project } = input;
  const format = resolutionValue(project.resolution);
  const size = videoSizeFor(format, 1080);
  const search = { prompt: input.prompt, narration: input.narration, aspectRatio: imageAspectFor(format), size, exclude: input.exclude };

  if (input.kind === "photo") {
    const photo = await stock.searchPhoto(search);
    const { data } = await stock.download(photo.downloadUrl);
    const type = (await fileTypeFromBuffer(data))?.ext;
    if (!type || !PHOTO_TYPES.has(type)) throw new ProviderError("Pexels", "malformed", `Pexels sent ${type ? type.toUpperCase() : "a file we do not recognise"} for photo ${photo.id}, not a photo.`);
    const jpeg = await prepareSceneImage(data, size);
    const file = await saveMedia({ userId, projectId: project.id, kind: "image", data: jpeg, mimeType: "image/jpeg", extension: "jpg", ...size });
    return { image: file, clip: null, credit: photo.credit };
  }

  const found = await stock.searchClip(search);
  const { data } = await stock.download(found.downloadUrl);
  const type = (await fileTypeFromBuffer(data))?.ext;
  if (!type || !CLIP_TYPES.has(type)) throw new ProviderError("Pexels", "malformed", `Pexels sent ${type ? type.toUpperCase() : "a file we do not recognise"} for video ${found.id}, not a video.`);
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), "reelsmith-pexels-"));
  try {
    const source = path.join(dir, `pexels-${found.id}.${type}`);
    await fsp.writeFile(source, data);
    const clip = await prepareSceneClip(source, size, { maxSeconds: SCENE_MEDIA_LIMITS.clipSeconds });
    try {
      const stored = await storePreparedClip(userId, project, clip);
      return { image: stored.poster, clip: { id: stored.file.id, durationSeconds: stored.durationSeconds }, credit: found.credit };
    } finally {
      await fsp.rm(clip.dir, { recursive: true, force: true });
    }
  } finally {
    await fsp.rm(dir, { recursive: true, force: true });
  }
}

/** The Pexels ids a project's scenes show (or keep for Undo), so another scene gets a different one. */
export function usedStockIds(cells: { mediaCredit: unknown; generatedMediaCredit: unknown }[]): number[] {
  const ids: number[] = [];
  for (const cell of cells) {
    for (const credit of [cell.mediaCredit, cell.generatedMediaCredit]) {
      const id = (credit as { id?: unknown } | null)?.id;
      if (typeof id === "number") ids.push(id);
    }
  }
  return ids;
}
