-- AlterTable
ALTER TABLE "YoutubeUpload" ADD COLUMN     "captionError" TEXT,
ADD COLUMN     "captionTrackId" TEXT;
