// What the publish step and the post activity need to know about a rendered video beyond its row (web and worker
// share it): whether AI made it (from the storyboard's scenes and the AI clips, app/lib/synthetic-media.ts) and the
// file's frame rate, read by ffprobe, for the platforms' frame-rate rules (decision 240).
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { prisma } from "~/core/db.server";
import { getEnv } from "~/core/env.server";
import { withLocalMediaCopy, type StoredMediaFile } from "~/core/storage.server";
import { aiMadeVerdict, type AiMadeVerdict } from "~/lib/synthetic-media";
import { parseFrameRate } from "~/lib/platform-rules";

const run = promisify(execFile);
const CLIP_PROVIDER_NAMES: Record<string, string> = { veo: "Google Veo", runway: "Runway" };

/** Whether the project's video must be declared AI-made, and why. */
export async function aiMadeForProject(projectId: string): Promise<AiMadeVerdict> {
  const [cells, clips] = await Promise.all([
    prisma.storyboardCell.findMany({
      where: { storyboard: { projectId } },
      select: { cellIndex: true, audioUrl: true, voiceMadeBy: true, imageUrl: true, imageSource: true, imageMadeBy: true, clipUrl: true, mediaCredit: true },
    }),
    prisma.clipGeneration.findMany({ where: { projectId, status: "succeeded" }, select: { cellIndex: true, provider: true }, orderBy: { createdAt: "asc" } }),
  ]);
  const aiClips = new Map(clips.map((c) => [c.cellIndex, CLIP_PROVIDER_NAMES[c.provider] ?? c.provider]));
  return aiMadeVerdict(
    cells.map((c) => ({ ...c, imageSource: String(c.imageSource), hasMediaCredit: c.mediaCredit !== null })),
    aiClips,
  );
}

export async function probeFrameRate(file: StoredMediaFile): Promise<number | null> {
  try {
    return await withLocalMediaCopy(file, async (local) => {
      const { stdout } = await run(getEnv().FFPROBE_PATH, ["-v", "error", "-select_streams", "v:0", "-show_entries", "stream=avg_frame_rate", "-of", "default=nw=1:nk=1", local]);
      return parseFrameRate(stdout);
    });
  } catch {
    return null;
  }
}
