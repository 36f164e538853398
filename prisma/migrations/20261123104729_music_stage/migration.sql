-- AlterTable
ALTER TABLE "MusicTrack" ADD COLUMN     "workflowId" TEXT;

-- AlterTable
ALTER TABLE "RenderedVideo" ADD COLUMN     "baseVideoId" TEXT,
ADD COLUMN     "musicTrackId" TEXT;
