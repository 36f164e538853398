-- AlterTable
ALTER TABLE "Script" ADD COLUMN     "writtenBy" TEXT;

-- AlterTable
ALTER TABLE "Storyboard" ADD COLUMN     "splitBy" TEXT;

-- AlterTable
ALTER TABLE "StoryboardCell" ADD COLUMN     "imageMadeBy" TEXT,
ADD COLUMN     "voiceMadeBy" TEXT;
