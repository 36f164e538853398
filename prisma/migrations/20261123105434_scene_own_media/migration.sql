-- CreateEnum
CREATE TYPE "SceneImageSource" AS ENUM ('generated', 'upload', 'project_image');

-- AlterEnum
ALTER TYPE "MediaKind" ADD VALUE 'clip';

-- AlterTable
ALTER TABLE "StoryboardCell" ADD COLUMN     "clipDuration" DOUBLE PRECISION,
ADD COLUMN     "clipFileId" TEXT,
ADD COLUMN     "clipUrl" TEXT,
ADD COLUMN     "generatedImageFileId" TEXT,
ADD COLUMN     "generatedImageUrl" TEXT,
ADD COLUMN     "imageSource" "SceneImageSource" NOT NULL DEFAULT 'generated';
