-- AlterEnum
-- This migration adds more than one value to an enum.
-- With PostgreSQL versions 11 and earlier, this is not possible
-- in a single migration. This can be worked around by creating
-- multiple migrations, each migration adding only one value to
-- the enum.


ALTER TYPE "ImageSource" ADD VALUE 'pexels_photos';
ALTER TYPE "ImageSource" ADD VALUE 'pexels_clips';

-- AlterTable
ALTER TABLE "StoryboardCell" ADD COLUMN     "generatedClipDuration" DOUBLE PRECISION,
ADD COLUMN     "generatedClipFileId" TEXT,
ADD COLUMN     "generatedClipUrl" TEXT,
ADD COLUMN     "generatedMediaCredit" JSONB,
ADD COLUMN     "mediaCredit" JSONB;

-- AlterTable
ALTER TABLE "UserSettings" ADD COLUMN     "pexelsApiKeyEnc" TEXT;
