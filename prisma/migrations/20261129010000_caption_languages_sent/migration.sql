-- AlterTable
ALTER TABLE "YoutubeUpload" ADD COLUMN     "captionLanguagesSent" TEXT[] DEFAULT ARRAY[]::TEXT[];
