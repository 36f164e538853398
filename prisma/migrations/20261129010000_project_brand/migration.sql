-- AlterTable
ALTER TABLE "Project" ADD COLUMN     "brand" JSONB;
