-- AlterTable
ALTER TABLE "ChannelAccount" ADD COLUMN     "postOptions" JSONB;

-- AlterTable
ALTER TABLE "ChannelIdea" ADD COLUMN     "postProblems" JSONB;
