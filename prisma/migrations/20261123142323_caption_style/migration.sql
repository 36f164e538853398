-- CreateEnum
CREATE TYPE "CaptionPreset" AS ENUM ('boxed', 'outlined', 'highlight', 'none');

-- CreateEnum
CREATE TYPE "CaptionPosition" AS ENUM ('top', 'middle', 'bottom');

-- CreateEnum
CREATE TYPE "CaptionSize" AS ENUM ('small', 'medium', 'large');

-- AlterTable
ALTER TABLE "Project" ADD COLUMN     "captionPosition" "CaptionPosition" NOT NULL DEFAULT 'bottom',
ADD COLUMN     "captionPreset" "CaptionPreset",
ADD COLUMN     "captionSize" "CaptionSize" NOT NULL DEFAULT 'medium';

-- AlterTable
ALTER TABLE "StoryboardCell" ADD COLUMN     "wordTimings" JSONB;
