-- AlterTable
ALTER TABLE "Project" ADD COLUMN     "language" TEXT NOT NULL DEFAULT 'en',
ADD COLUMN     "voiceId" TEXT,
ADD COLUMN     "voiceSpeed" DOUBLE PRECISION NOT NULL DEFAULT 1;

-- AlterTable
ALTER TABLE "StoryboardCell" ADD COLUMN     "audioProvider" TEXT,
ADD COLUMN     "audioVoiceId" TEXT;
