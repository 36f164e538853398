-- AlterTable
ALTER TABLE "VideoRun" ADD COLUMN     "stageTimes" JSONB;
